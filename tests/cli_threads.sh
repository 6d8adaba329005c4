#!/usr/bin/env bash
# --threads from the command line: the same report, trace and schedule file for every count, and a
# bad count refused in one line.
set -u
mmsim=$(realpath "$1")
source "$(dirname "$0")/cli_lib.sh"
cd "$tmp"

for t in 1 2 3; do
  expect 0 "run --threads $t" -- "$mmsim" run d-designated --perm random -n 262144 -k 3 --threads $t --json --trace t$t.csv
  grep -v '_seconds"' "$tmp/out" >run$t.json
  expect 0 "schedule --threads $t" -- "$mmsim" schedule --perm random -n 65536 -w 16 -o s$t.bin --threads $t
done
for t in 2 3; do
  cmp -s run1.json run$t.json || { echo "FAIL: the report on $t threads differs"; fail=1; }
  cmp -s t1.csv t$t.csv || { echo "FAIL: the trace on $t threads differs"; fail=1; }
  cmp -s s1.bin s$t.bin || { echo "FAIL: the schedule file on $t threads differs"; fail=1; }
done
expect 0 "bench --threads 2" -- "$mmsim" bench -n 65536 --repeats 1 --threads 2 --json
grep -q '"engine_speedup"' "$tmp/out" || { echo "FAIL: bench prints no speed-up"; fail=1; }
expect 0 "bench-schedule --threads 2" -- "$mmsim" bench-schedule -n 65536 --threads 2 --json
grep -q '"threads": 2' "$tmp/out" || { echo "FAIL: bench-schedule does not say its threads"; fail=1; }
for bad in 0 -1 x 1025 ""; do
  expect 2 "run --threads '$bad'" -- "$mmsim" run d-designated -n 1024 --threads "$bad"
  expect 2 "bench-schedule --threads '$bad'" -- "$mmsim" bench-schedule -n 4096 --threads "$bad"
done
[ $fail = 0 ] && echo "cli_threads: all passed"
exit $fail
