#!/usr/bin/env bash
# scripts/check_no_shell.sh catches each way of reaching a shell, in each kind of C++ file, and
# lets the look-alikes through: a check that never fails would guard nothing.
set -u
check=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# verdict WANT FILE LINE: a tree holding only FILE with LINE makes the check exit WANT.
verdict() {
  local want=$1 file=$2 line=$3
  rm -rf "$tmp/root"
  mkdir -p "$tmp/root/$(dirname "$file")"
  printf '%s\n' "$line" >"$tmp/root/$file"
  bash "$check" "$tmp/root" >"$tmp/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: '$line' in $file: exit $got, wanted $want"; cat "$tmp/out"; fail=1
  fi
}

verdict 1 cli/a.cpp '  std::system(cmd.c_str());'
verdict 1 experiments/a.h 'int r = system ("ls");'
verdict 1 cuda/a.cu 'FILE* f = popen(cmd, "r");'
verdict 1 algorithms/a.cpp 'execl("/bin/sh", "sh", "-c", cmd, nullptr);'
verdict 1 models/a.hpp '// the check reads text, so even a comment naming sh -c fails it'
verdict 1 sim/a.cpp 'auto run = &std::system;'
verdict 1 report/a.cuh 'execlp("sh -c", x);'
verdict 0 cli/a.cpp 'std::filesystem::create_directories(dir); ecosystem_size(); subsystem(1);'
verdict 0 cli/a.cpp '// a shell reads its command line as code'
exit $fail
