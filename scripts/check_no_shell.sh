#!/usr/bin/env bash
# CI check: no C++ source of mmsim hands a command line to a shell. A shell re-reads its command
# line as code, so any name pasted into one (an output folder, a file) can run commands; mmsim
# starts programs with posix_spawnp and an argument vector instead (experiments/figures.cpp).
#   scripts/check_no_shell.sh [ROOT]   (default: this checkout) exits 1 and lists each hit.
set -u
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
dirs=()
for d in cli experiments algorithms models sim report cuda; do
  [ -d "$root/$d" ] && dirs+=("$root/$d")
done
if [ ${#dirs[@]} -eq 0 ]; then
  echo "check_no_shell: no source folders under $root"
  exit 2
fi
# std::system and system( (a word of its own, so filesystem( is fine), popen, "sh -c" (bash -c too)
# and /bin/sh named outright.
pattern='std::system|(^|[^A-Za-z0-9_])system[[:space:]]*\(|popen|sh -c|/bin/(ba)?sh\b'
hits=$(grep -rnE "$pattern" "${dirs[@]}" \
  --include='*.cpp' --include='*.cc' --include='*.cxx' --include='*.h' --include='*.hpp' \
  --include='*.cu' --include='*.cuh' --include='*.inl')
if [ -n "$hits" ]; then
  echo "$hits"
  echo "check_no_shell: a shell command line in the C++ sources; start programs with posix_spawnp and an argument vector"
  exit 1
fi
echo "check_no_shell: no shell in $(find "${dirs[@]}" -type f \( -name '*.cpp' -o -name '*.cc' -o -name '*.cxx' -o -name '*.h' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.inl' \) | wc -l) C++ files"
