#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [TARGET...]: builds the libFuzzer targets of tests/fuzz with clang
# (ASan and UBSan, stopping at the first error) in build-fuzz/, then runs each for SECONDS (default
# 15), one after the other, starting from its corpus tests/fuzz/<target>/. Fails on any crash,
# sanitizer report, broken property, timeout (one input over 10 s) or memory blow-up; the input
# that failed is kept under build-fuzz/findings/<target>/ and replayed with its output shown.
# Prints, per target, the executions it ran. New inputs that libFuzzer finds go to
# build-fuzz/findings/<target>/corpus, never into the repository (docs/fuzzing.md says which to
# keep).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-15}
shift $(( $# > 0 ? 1 : 0 ))
case $seconds in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number (got '$seconds')" >&2; exit 2 ;; esac
build=${MMSIM_FUZZ_BUILD:-$root/build-fuzz}
CXX_CLANG=${CXX_CLANG:-clang++}
command -v "$CXX_CLANG" >/dev/null || { echo "fuzz.sh: $CXX_CLANG not found (Debian package clang)" >&2; exit 2; }

if [ $# -gt 0 ]; then
  targets=("$@")
else
  # The list of tests/fuzz/CMakeLists.txt, so that a new target is fuzzed without editing this.
  mapfile -t targets < <(sed -n '/^set(MMSIM_FUZZ_TARGETS/,/^)/p' "$root/tests/fuzz/CMakeLists.txt" | sed '1d;$d' | tr -d ' ')
fi

# ccache where installed, paths hashed relative to the checkout (as mmsim.sh's builds).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# -O1 -g1: half the compile time of -O2 -g, and line numbers in every report.
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$CXX_CLANG" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DMMSIM_FUZZ=ON -DMMSIM_BUILD_TESTS=ON -DMMSIM_CUDA=OFF -DMMSIM_MPI=OFF -DMMSIM_INSTALL=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

status=0
for t in "${targets[@]}"; do
  work=$build/findings/$t
  rm -rf "$work"
  mkdir -p "$work/corpus"
  dict=()
  [ -f "$root/tests/fuzz/$t.dict" ] && dict=(-dict="$root/tests/fuzz/$t.dict")
  # The first corpus folder receives what libFuzzer finds; the repository's is only read.
  if "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
       -print_final_stats=1 -artifact_prefix="$work/" "${dict[@]}" "$work/corpus" "$root/tests/fuzz/$t" \
       >"$work/log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
    found=$(find "$work/corpus" -type f | wc -l)
    echo "fuzz $t: ok, ${runs:-?} executions in ${seconds} s, $found new corpus inputs"
  else
    status=1
    echo "fuzz $t: FAILED; libFuzzer's log ends:" >&2
    grep -v '^#' "$work/log" | tail -n 30 >&2
    for a in "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-*; do
      [ -f "$a" ] || continue
      echo "fuzz $t: failing input $a; replayed with its output shown:" >&2
      MMSIM_FUZZ_SHOW_OUTPUT=1 "$build/tests/fuzz/fuzz_$t" "$a" 2>&1 | tail -n 30 >&2 || true
    done
  fi
done
exit $status
