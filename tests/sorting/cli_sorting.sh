#!/usr/bin/env bash
# CLI checks of the AS family through `mmsim run`: the values a run reports (correct, CAC violations,
# steps against the engine's time, the figures of each algorithm, the trace), and exit status 2 with
# one line naming the option for bad input.
set -u
mmsim="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
# has WHAT REGEX: the last command's stdout must match the extended regex.
has() {
  grep -Eq -- "$2" "$tmp/out" || { echo "FAIL ($1): no match for $2"; cat "$tmp/out"; fail=1; }
}
# says WHAT TEXT: the last command's single stderr line must contain TEXT.
says() {
  grep -Fq -- "$2" "$tmp/err" || { echo "FAIL ($1): stderr does not say $2"; cat "$tmp/err"; fail=1; }
}
# value KEY: the first "KEY": value of the last JSON output at an indent of INDENT spaces.
value() { sed -n "s/^ \{$2\}\"$1\": \([^,]*\),\{0,1\}\$/\1/p" "$tmp/out" | head -n 1; }

expect 0 "sort json" -- "$mmsim" run as-sort -w 8 -m 8 --json
has "sort json" '^  "correct": true,?$'
has "sort json" '^    "cac_violations": 0,?$'
has "sort json" '^    "max_congestion": 1,?$'
has "sort json" '^  "family": "sorting",$'
has "sort json" '^  "paper": "AS Sect. 2, Lemma 1, Theorems 1-2",$'
has "sort json" '"method": "theorem1 \(w = m;'
# The count baa4e7e reported for this run, and one time unit per conflict-free step.
[ "$(value steps 4)" = 1212 ] || { echo "FAIL (sort json): steps $(value steps 4), wanted 1212"; fail=1; }
[ "$(value time_units 2)" = 1212 ] || { echo "FAIL (sort json): time_units $(value time_units 2)"; fail=1; }
[ "$(value predicted_time_units 2)" = null ] || { echo "FAIL (sort json): a prediction"; fail=1; }

expect 0 "sort text" -- "$mmsim" run as-sort -w 8 -m 16 --seed 3
has "sort text" '^cac_violations: 0$'
has "sort text" '^output correct: +yes$'

expect 0 "partition json" -- "$mmsim" run as-partition -w 8 -m 8 --json
has "partition json" '^  "correct": true,?$'
has "partition json" '^    "cac_violations": 0,?$'
has "partition json" '"method": "theorem1 partition: '

expect 0 "lemma 2" -- "$mmsim" run as-partition -w 64 -m 8 --json
has "lemma 2" '"method": "lemma2 \(w > m;'
has "lemma 2" '^    "cac_violations": 0,?$'
has "lemma 2" '^  "correct": true,?$'

expect 0 "permute json" -- "$mmsim" run as-permute -w 16 -m 4 --json
has "permute json" '^  "correct": true,?$'
has "permute json" '^    "cac_violations": 0,?$'
has "permute json" '^    "iterations": [1-9][0-9]*,?$'
has "permute json" '^    "leftover_labels": [0-9]+,?$'
has "permute json" '^      "name": "communicate",$'

# Appendix B's finish: the packed width, the Lemma 2 phases, the random words beside the theorem's.
expect 0 "permute lemma 2" -- "$mmsim" run as-permute -w 32 -m 32 --json
has "permute lemma 2" '"method": "theorem4: .*finish: packed into w x [0-9]+ .*sorted \[lemma2'
has "permute lemma 2" '^      "name": "finish: lemma2 d0: '
has "permute lemma 2" '^      "name": "finish: send",$'
has "permute lemma 2" '^    "packed_width": [0-9]+,?$'
has "permute lemma 2" '^    "random_words": [0-9]+,?$'
has "permute lemma 2" '^    "random_words_theorem4": [0-9]+,?$'
has "permute lemma 2" '^  "correct": true,?$'

# The baselines are correct but break the CAC: their time exceeds their steps.
for a in as-sort-bitonic as-partition-direct as-permute-direct; do
  expect 0 "$a" -- "$mmsim" run "$a" -w 16 -m 16 --json
  has "$a" '^  "correct": true,?$'
  has "$a" '^    "cac_violations": [1-9][0-9]*,?$'
  [ "$(value time_units 2)" -gt "$(value steps 4)" ] || { echo "FAIL ($a): no time lost to conflicts"; fail=1; }
done

printf '%s\n' 5 3 9 1 0 2 8 7 > "$tmp/keys"
expect 0 "keys file" -- "$mmsim" run as-sort -w 2 -m 4 --keys-file "$tmp/keys" --json
has "keys file" '^  "correct": true,?$'
has "keys file" '^    "keys_file": ".*/keys",$'

expect 0 "trace" -- "$mmsim" run as-sort -w 4 -m 4 --trace "$tmp/trace.csv" --json
[ "$(head -n 1 "$tmp/trace.csv")" = "round,kernel,name,array,op,memory,warp,slot,enter,complete,requests" ] ||
  { echo "FAIL (trace): header"; fail=1; }
# One slot per step: as many lines as steps, plus the header.
[ "$(($(wc -l <"$tmp/trace.csv") - 1))" = "$(value steps 4)" ] || { echo "FAIL (trace): lines != steps"; fail=1; }

expect 2 "unknown option" -- "$mmsim" run as-sort -k 4
says "unknown option" "-k"
expect 2 "latency is fixed" -- "$mmsim" run as-sort -w 8 -m 8 -l 2
says "latency is fixed" "-l"
expect 2 "no asynchronous execution" -- "$mmsim" run as-sort -w 8 -m 8 --async
says "no asynchronous execution" "--async"
expect 2 "w not a power of two" -- "$mmsim" run as-sort -w 6 -m 8
says "w not a power of two" "-w: must be a power of two"
expect 2 "m not a power of two" -- "$mmsim" run as-sort -w 8 -m 3
says "m not a power of two" "-m: must be a power of two"
expect 2 "m missing" -- "$mmsim" run as-partition -w 8
says "m missing" "-m is required"
expect 2 "w m too large" -- "$mmsim" run as-sort -w 1024 -m 8192
says "w m too large" "-w, -m: w * m must be at most 2^22"

printf '%s\n' 5 3 x 1 0 2 8 7 > "$tmp/bad"
expect 2 "bad key" -- "$mmsim" run as-sort -w 2 -m 4 --keys-file "$tmp/bad"
says "bad key" "line 3"
expect 2 "short file" -- "$mmsim" run as-sort -w 4 -m 4 --keys-file "$tmp/keys"
says "short file" "--keys-file"
expect 2 "missing file" -- "$mmsim" run as-sort -w 2 -m 4 --keys-file "$tmp/none"
says "missing file" "cannot read"
expect 2 "bad partition labels" -- "$mmsim" run as-partition -w 2 -m 4 --keys-file "$tmp/keys"
says "bad partition labels" "label 5 is not below 2"
expect 2 "bad permutation labels" -- "$mmsim" run as-permute -w 2 -m 4 --keys-file "$tmp/keys"
says "bad permutation labels" "label 9 is not below 8"
exit $fail
