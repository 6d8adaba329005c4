#!/usr/bin/env bash
# `mmsim sweep` from the command line: a grid's files, the same bytes for any thread count, after
# an interruption (the process killed mid-sweep, then run again), and, given an MPI launcher, under
# `mpirun -n 2`; bad grids refused in one line with status 2.
# Usage: cli_sweep.sh MMSIM [MPIEXEC]
set -u
mmsim=$(realpath "$1")
mpiexec=${2:-}
source "$(dirname "$0")/cli_lib.sh"
cd "$tmp"

cat >grid.json <<'JSON'
{"description": "a small grid of every kind of row",
 "runs": [
  {"algorithm": "d-designated", "execution": ["round-synchronous", "asynchronous"],
   "parameters": {"n": {"from": 1024, "to": 65536, "times": 4}, "perm": ["random", "bit-reversal"], "w": 32}},
  {"algorithm": "scheduled", "parameters": {"n": [4096, 16384], "w": [8, 16], "seed": [1, 2]}},
  {"algorithm": "crsw", "parameters": {"w": [8, 16], "layout": ["raw", "ras", "rap"]}},
  {"algorithm": "congestion", "parameters": {"layout": ["raw", "rap"], "pattern": "random", "w": {"from": 4, "to": 32, "times": 2}, "trials": 1000}}
 ]}
JSON

expect 0 "sweep" -- "$mmsim" sweep grid.json -o one.csv --threads 1
[ "$(wc -l <one.csv)" = 39 ] || { echo "FAIL: one.csv has $(wc -l <one.csv) lines, wanted 39"; fail=1; }
[ -s one.json ] || { echo "FAIL: no one.json"; fail=1; }
[ -e one.csv.partial ] && { echo "FAIL: the journal was left behind"; fail=1; }
grep -q '^d-designated,asynchronous,1024,32,' one.csv || { echo "FAIL: no asynchronous row"; fail=1; }
grep -q ',false,' one.csv && { echo "FAIL: a row is incorrect"; fail=1; }

expect 0 "sweep on two threads" -- "$mmsim" sweep grid.json -o two.csv --threads 2 --json
cmp -s one.csv two.csv && cmp -s one.json two.json || { echo "FAIL: threads change the files"; fail=1; }

# Killed when a few rows are done, then run again: only the rest runs, and the files are the same.
"$mmsim" sweep grid.json -o cut.csv --threads 1 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 400); do
  [ "$(cat cut.csv.partial 2>/dev/null | wc -l)" -ge 6 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.01
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
expect 0 "resumed sweep" -- "$mmsim" sweep grid.json -o cut.csv --json
cmp -s one.csv cut.csv && cmp -s one.json cut.json || { echo "FAIL: the resumed sweep differs"; fail=1; }

# A finished sweep leaves no journal, so running it again runs every row again: the same bytes.
expect 0 "sweep again" -- "$mmsim" sweep grid.json -o cut.csv
cmp -s one.csv cut.csv || { echo "FAIL: a second sweep differs"; fail=1; }

bad() {  # bad WHAT GRID-TEXT: status 2, one line
  printf '%s' "$2" >bad.json
  expect 2 "$1" -- "$mmsim" sweep bad.json -o bad.csv
  [ -e bad.csv ] && { echo "FAIL ($1): wrote bad.csv"; fail=1; }
}
bad "unknown algorithm" '{"runs": [{"algorithm": "quicksort"}]}'
bad "unknown parameter" '{"runs": [{"algorithm": "d-designated", "parameters": {"colour": 3}}]}'
bad "value against its rule" '{"runs": [{"algorithm": "d-designated", "parameters": {"w": [32, 0]}}]}'
bad "congestion layout" '{"runs": [{"algorithm": "congestion", "parameters": {"layout": "zig", "pattern": "random"}}]}'
bad "not JSON" '{"runs": ['
bad "no runs" '{"runs": []}'
expect 2 "output over the grid" -- "$mmsim" sweep grid.json -o grid.csv
expect 2 "no grid file" -- "$mmsim" sweep missing.json -o x.csv
expect 2 "bad thread count" -- "$mmsim" sweep grid.json -o x.csv --threads 0

if [ -n "$mpiexec" ]; then
  flags=()
  if "$mpiexec" --version 2>&1 | grep -q "Open MPI"; then
    flags+=(--oversubscribe)
    [ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
  fi
  expect 0 "mpirun -n 2 sweep" -- "$mpiexec" "${flags[@]}" -n 2 "$mmsim" sweep grid.json -o mpi.csv --threads 1 --json
  grep -q '"ranks": 2' "$tmp/out" || { echo "FAIL: the MPI sweep ran on $(grep -o '"ranks": [0-9]*' "$tmp/out")"; fail=1; }
  cmp -s one.csv mpi.csv && cmp -s one.json mpi.json || { echo "FAIL: the MPI sweep's files differ"; fail=1; }
  # Half the rows in a journal: the two ranks share the rest.
  { head -18 one.csv; } >half.csv.partial
  expect 0 "mpirun -n 2 resumed sweep" -- "$mpiexec" "${flags[@]}" -n 2 "$mmsim" sweep grid.json -o half.csv --threads 1
  cmp -s one.csv half.csv || { echo "FAIL: the resumed MPI sweep differs"; fail=1; }
  printf '%s' '{"runs": [{"algorithm": "quicksort"}]}' >bad.json
  "$mpiexec" "${flags[@]}" -n 2 "$mmsim" sweep bad.json -o bad.csv >out 2>err
  [ $? = 2 ] || { echo "FAIL: a bad grid under mpirun: exit $?"; fail=1; }
  [ "$(grep -c "unknown algorithm" err)" = 1 ] || { echo "FAIL: a bad grid under mpirun should be named once"; cat err; fail=1; }
fi
[ $fail = 0 ] && echo "cli_sweep: all passed"
exit $fail
