#!/usr/bin/env bash
# examples/custom_kernel as a user builds it: configured against the installed prefix alone
# (find_package(mmsim)), built, and run in both execution modes; the round-synchronous time must
# equal the closed form the example prints, and the output must be correct.
#   example_installed.sh EXAMPLE_SOURCE PREFIX CMAKE CXX
set -u
src=$1 prefix=$2 cmake=$3 cxx=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cmake" -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
grep -q "mmsim_DIR:PATH=$prefix" "$work/build/CMakeCache.txt" || fail "mmsim was not found in $prefix"
"$cmake" --build "$work/build" -j 2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }

value() { grep -o "\"$1\": [^,]*" "$work/out" | head -1 | sed 's/.*: //'; }
"$work/build/custom_kernel" --json >"$work/out" || fail "custom_kernel exited $?"
[ "$(value correct)" = true ] || fail "output not correct"
[ "$(value time_units)" = "$(value predicted_time_units)" ] ||
  fail "time units $(value time_units), closed form $(value predicted_time_units)"
# w = 32, n = 1024, L = 100, 16 blocks of 64 on 8 DMMs: 2 (32 + 99) + 2 (4 + 0) = 270.
[ "$(value time_units)" = 270 ] || fail "time units $(value time_units), expected 270"
"$work/build/custom_kernel" --json --async >"$work/out" || fail "custom_kernel --async exited $?"
[ "$(value correct)" = true ] || fail "asynchronous output not correct"
"$work/build/custom_kernel" --stride 2 --blocks 5 -w 8 --threads 16 | grep -q "output correct: *yes" ||
  fail "text report of a conflicted stride"
echo "example_installed: built against $prefix, 270 time units as the closed form says"
