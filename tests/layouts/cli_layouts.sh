#!/usr/bin/env bash
# CLI checks of the layouts family: congestion, run crsw/srcw/drdw, tables' names, and bad input
# (exit status 2 with one line on stderr).
set -u
mmsim="$1"
fail=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT

expect() {  # expect STATUS ARGS...: exit status and, for 2, exactly one line on stderr
  local want=$1; shift
  "$mmsim" "$@" >/dev/null 2>"$err"
  local got=$?
  if [ "$got" != "$want" ]; then echo "FAIL: mmsim $* exited $got, want $want"; cat "$err"; fail=1; fi
  if [ "$want" = 2 ] && [ "$(wc -l <"$err")" != 1 ]; then echo "FAIL: mmsim $*: stderr is not one line"; cat "$err"; fail=1; fi
}

expect 0 congestion --layout rap --pattern stride -w 32 --trials 1000
expect 0 congestion --layout r1p --pattern malicious -w 16 --dims 4 --trials 100
expect 2 congestion --layout bogus --pattern stride -w 32
expect 2 congestion --layout rap --pattern bogus -w 32
expect 2 congestion --layout rap --pattern stride -w 1
expect 2 congestion --layout rap --pattern stride -w 0
expect 2 congestion --layout rap --pattern stride -w 32 --dims 3
expect 2 congestion --layout 1p --pattern stride -w 32
expect 2 congestion --layout 1p --pattern stride1 -w 32 --dims 2
expect 2 congestion --layout rap --pattern stride -w 32 --trials 0
expect 2 congestion --layout rap --pattern stride -w 32 --trials 999999999999
expect 2 congestion --layout rap --pattern stride -w x
expect 0 congestion --bench-all -w 8 --trials 200 --repeat 1
expect 0 congestion --bench-all -w 4 --dims 4 --trials 50 --repeat 1 --json
expect 2 congestion --bench-all --layout rap -w 8
expect 2 congestion --bench-all --repeat 0
expect 2 congestion --bench-all -w 1
expect 2 congestion --bench-all --min-seconds 0
expect 2 congestion --pattern stride -w 8
expect 2 congestion --layout rap -w 8
expect 0 run crsw --layout rap -w 8 -l 3 --seed 4
expect 0 run drdw --layout xor -w 6 --async
expect 2 run crsw --layout bogus -w 8
expect 2 run srcw --layout rap -w 1
expect 2 run srcw --layout rap -w 2000
expect 2 run crsw --layout rap -w 8 -n 10

json=$("$mmsim" congestion --layout ras --pattern stride -w 16 --trials 500 --seed 3 --json)
for key in layout pattern w dims trials seed mean stderr min max histogram; do
  if ! grep -q "\"$key\"" <<<"$json"; then echo "FAIL: congestion --json lacks $key"; fail=1; fi
done
out=$("$mmsim" congestion --layout rap --pattern stride -w 32 --trials 100)
grep -q "mean congestion 1.0000" <<<"$out" || { echo "FAIL: rap stride is not 1"; fail=1; }
grep -q "seed = 1" <<<"$out" || { echo "FAIL: seed not printed"; fail=1; }
run=$("$mmsim" run crsw --layout rap -w 16 --seed 2 --json)
grep -q '"correct": true' <<<"$run" || { echo "FAIL: crsw rap not correct"; echo "$run"; fail=1; }
grep -q '"write_congestion_max": 1' <<<"$run" || { echo "FAIL: crsw rap write congestion not 1"; fail=1; }
bench=$("$mmsim" congestion --bench-all -w 32 --trials 1000 --repeat 2)
for row in "raw      contiguous" "rap      random" "xor      diagonal"; do
  grep -qF "$row" <<<"$bench" || { echo "FAIL: --bench-all lacks $row"; fail=1; }
done
[ "$(grep -c "M/s\|^[a-z]" <<<"$bench")" -ge 21 ] || { echo "FAIL: --bench-all rows"; echo "$bench"; fail=1; }
list=$("$mmsim" list)
for name in crsw srcw drdw rap r1p 1pw2r "malicious (--dims 4, r1p)" rap-t1 rap-t2 rap-t3 rap-t4; do
  grep -qF "$name" <<<"$list" || { echo "FAIL: mmsim list lacks $name"; fail=1; }
done
exit $fail
