#!/usr/bin/env bash
# CLI checks of the layouts family: congestion, run crsw/srcw/drdw (values of their reports, not only
# exit statuses), tables' names, and bad input (exit status 2 with one line on stderr).
set -u
mmsim="$1"
fail=0
err=$(mktemp)
trap 'rm -f "$err" "$err.out"' EXIT

expect() {  # expect STATUS ARGS...: exit status and, for 2, exactly one line on stderr; stdout in $err.out
  local want=$1; shift
  "$mmsim" "$@" >"$err.out" 2>"$err"
  local got=$?
  if [ "$got" != "$want" ]; then echo "FAIL: mmsim $* exited $got, want $want"; cat "$err"; fail=1; fi
  if [ "$want" = 2 ] && [ "$(wc -l <"$err")" != 1 ]; then echo "FAIL: mmsim $*: stderr is not one line"; cat "$err"; fail=1; fi
}

expect 0 congestion --layout rap --pattern stride -w 32 --trials 1000
# saw TEXT WHAT: the last command's stdout contains TEXT.
saw() { grep -qF -- "$1" "$err.out" || { echo "FAIL: $2"; cat "$err.out"; fail=1; }; }
saw "mean congestion 1.0000" "rap stride at w = 32 is not exactly 1"
expect 0 congestion --layout r1p --pattern malicious -w 16 --dims 4 --trials 100
# NMI Sect. VII: r1p's malicious access puts each group of 6 orderings in one bank, so at least 6.
min=$(grep -oE "min [0-9]+" "$err.out" | grep -oE "[0-9]+")
[ -n "$min" ] && [ "$min" -ge 6 ] || { echo "FAIL: r1p malicious min congestion $min, want >= 6"; cat "$err.out"; fail=1; }
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
# --json is one object, as every command's: the setting, then its rows.
json=$("$mmsim" congestion --bench-all -w 4 --trials 50 --repeat 1 --json)
python3 -c 'import json,sys; j=json.loads(sys.argv[1]); assert isinstance(j, dict) and j["w"] == 4 and len(j["rows"]) > 1' "$json" ||
  { echo "FAIL: congestion --bench-all --json is not one object with its rows"; fail=1; }
expect 2 congestion --bench-all --layout rap -w 8
expect 2 congestion --bench-all --repeat 0
expect 2 congestion --bench-all -w 1
expect 2 congestion --bench-all --min-seconds 0
expect 2 congestion --pattern stride -w 8
expect 2 congestion --layout rap -w 8
expect 0 run crsw --layout rap -w 8 -l 3 --seed 4
# RAP: both rounds conflict-free, 2 (w + l - 1) = 20 (NMI Table III).
grep -q "^time units: *20$" "$err.out" || { echo "FAIL: crsw rap w = 8, l = 3: time units"; cat "$err.out"; fail=1; }
grep -q "^output correct: *yes" "$err.out" || { echo "FAIL: crsw rap not correct"; fail=1; }
expect 0 run drdw --layout xor -w 6 --async
grep -q "^output correct: *yes" "$err.out" || { echo "FAIL: drdw xor async not correct"; cat "$err.out"; fail=1; }
expect 0 run srcw --layout pad -w 8 -n 64
# pad: rows and columns conflict-free, 2 (w + l - 1) = 16.
grep -q "^time units: *16$" "$err.out" || { echo "FAIL: srcw pad w = 8: time units"; cat "$err.out"; fail=1; }
grep -q "^read_congestion_max: 1$" "$err.out" || { echo "FAIL: srcw pad: read congestion"; fail=1; }
expect 2 run crsw --layout bogus -w 8
expect 2 run srcw --layout rap -w 1
expect 2 run srcw --layout rap -w 2000
expect 2 run crsw --layout rap -w 8 -n 10
expect 2 run crsw --layout rap -w 8 --seed -1
# The transposes run on a DMM: the HMM's options are not theirs.
expect 2 run crsw -k 4
expect 2 run drdw -L 100

json=$("$mmsim" congestion --layout ras --pattern stride -w 16 --trials 500 --seed 3 --json)
for key in layout pattern w dims trials seed mean stderr min max histogram; do
  if ! grep -q "\"$key\"" <<<"$json"; then echo "FAIL: congestion --json lacks $key"; fail=1; fi
done
out=$("$mmsim" congestion --layout rap --pattern stride -w 32 --trials 100)
grep -q "mean congestion 1.0000" <<<"$out" || { echo "FAIL: rap stride is not 1"; fail=1; }
grep -q "seed = 1" <<<"$out" || { echo "FAIL: seed not printed"; fail=1; }
# has TEXT WHAT PATTERN: the report (blanks removed) matches PATTERN.
has() { grep -q -- "$3" <<<"$(tr -d ' \n' <<<"$1")" || { echo "FAIL: $2"; echo "$1"; fail=1; }; }
# [NMI] Sect. III under raw, w = 32, l = 1: contiguous read w + l - 1 = 32, stride write w^2 + l - 1 = 1024.
run=$("$mmsim" run crsw -w 32 --layout raw --json)
has "$run" "crsw raw not correct" '"correct":true}$'
has "$run" "crsw raw: no write round of congestion 32" '"op":"write"[^}]*"max_congestion":32,'
has "$run" "crsw raw: read round not conflict-free" '"op":"read"[^}]*"max_congestion":1,'
has "$run" "crsw raw: time units" '"time_units":1056,"predicted_time_units":1056,'
has "$run" "crsw raw: figures" '"figures":{"layout":"raw","read_congestion_max":1,"read_congestion_mean":1,"write_congestion_max":32,"write_congestion_mean":32}'
has "$run" "crsw raw: machine" '"machine":{"model":"dmm","w":32,"l":1}'
has "$run" "crsw raw: n" '"n":1024,"permutation":"transpose"'
run=$("$mmsim" run crsw --layout rap -w 16 --seed 2 --json)
has "$run" "crsw rap not correct" '"correct":true}$'
has "$run" "crsw rap write congestion not 1" '"write_congestion_max":1,'
has "$run" "crsw rap: closed form 2(w + l - 1)" '"time_units":32,"predicted_time_units":32,'
has "$run" "crsw rap: shifts" '"shifts":"[0-9 ]*"'
has "$run" "crsw rap: seed" '"seed":2'
run=$("$mmsim" run drdw --layout ras -w 8 -l 2 --async --json)
has "$run" "drdw ras async not correct" '"execution":"asynchronous"'
has "$run" "drdw ras: no closed form" '"predicted_time_units":null'
# Stride read w^2 + l - 1 = 20, contiguous write w + l - 1 = 8.
run=$("$mmsim" run srcw --layout raw -w 4 -l 5)
grep -q "^time units: *28$" <<<"$run" || { echo "FAIL: srcw text: time units"; echo "$run"; fail=1; }
grep -q "^read_congestion_max: 4$" <<<"$run" || { echo "FAIL: srcw text: read congestion"; fail=1; }
grep -q "^output correct: *yes" <<<"$run" || { echo "FAIL: srcw text: not correct"; fail=1; }
"$mmsim" run crsw -w 4 --trace "$err.csv" >/dev/null
[ "$(head -1 "$err.csv")" = "round,kernel,name,array,op,memory,warp,slot,enter,complete,requests" ] || { echo "FAIL: trace header"; fail=1; }
[ "$(grep -c '^1,crsw,write b,b,write,shared0,' "$err.csv")" = 16 ] || { echo "FAIL: trace: 16 write slots"; fail=1; }
rm -f "$err.csv"
"$mmsim" run crsw -k 4 2>"$err" >/dev/null
[ "$(cat "$err")" = "mmsim: run crsw: '-k' is not an option of run crsw (see mmsim run crsw --help)" ] || { echo "FAIL: -k line"; cat "$err"; fail=1; }
"$mmsim" run crsw -w 8 -n 10 2>"$err" >/dev/null
grep -q "^mmsim: crsw: -n: .*w^2 = 64 (got 10)$" "$err" || { echo "FAIL: -n line"; cat "$err"; fail=1; }
bench=$("$mmsim" congestion --bench-all -w 32 --trials 1000 --repeat 2)
for row in "raw      contiguous" "rap      random" "xor      diagonal"; do
  grep -qF "$row" <<<"$bench" || { echo "FAIL: --bench-all lacks $row"; fail=1; }
done
[ "$(grep -c "M/s\|^[a-z]" <<<"$bench")" -ge 21 ] || { echo "FAIL: --bench-all rows"; echo "$bench"; fail=1; }
list=$("$mmsim" list)
for name in rap r1p 1pw2r "malicious (--dims 4, r1p)" rap-t1 rap-t2 rap-t3 rap-t4 "NMI Sect. VII"; do
  grep -qF "$name" <<<"$list" || { echo "FAIL: mmsim list lacks $name"; fail=1; }
done
grep -E "^\| (layout|pattern) .*papers[/]0" <<<"$list" && { echo "FAIL: mmsim list cites a paper by its file, not by its key"; fail=1; }
runs=$("$mmsim" run --help)
for name in crsw srcw drdw; do
  grep -q "^  $name " <<<"$runs" || { echo "FAIL: mmsim run lacks $name"; fail=1; }
done
exit $fail
