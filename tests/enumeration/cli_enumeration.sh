#!/usr/bin/env bash
# CLI checks of the enumeration-scheme transpositions (papers/004): runs, JSON keys, and exit status 2
# with one line on stderr for bad input.
set -u
mmsim="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
for a in transpose-ip-naive transpose-ip-supergrid transpose-ip-v1 transpose-ip-v1r transpose-ip-v1b; do
  expect 0 "$a" -- "$mmsim" run "$a" --order 45 -w 8 -k 2 --band 2 --region 2
  grep -q "output correct:   yes" "$tmp/out" || { echo "FAIL: $a not correct"; fail=1; }
done
expect 0 "ip async tlb json" -- "$mmsim" run transpose-ip-v1b --order 64 -w 8 --async --resident 1 --tlb-entries 8 --page-cells 512 --json
grep -q '"correct": true' "$tmp/out" || { echo "FAIL: correct missing"; fail=1; }
grep -q '"misses": ' "$tmp/out" || { echo "FAIL: misses missing"; fail=1; }
expect 0 "oop nvidia" -- "$mmsim" run transpose-oop-nvidia --rows 20 --cols 37 -w 8
expect 0 "oop banded trace" -- "$mmsim" run transpose-oop-v1bf --rows 20 --cols 37 -w 8 --band 3 --async --trace "$tmp/t.csv"
head -1 "$tmp/t.csv" | grep -q '^round,kernel' || { echo "FAIL: trace header"; fail=1; }
expect 0 "oop square from --order" -- "$mmsim" run transpose-oop-v1bf --order 16 -w 8 --json
grep -q '"matrix": "16 x 16"' "$tmp/out" || { echo "FAIL: square shape"; fail=1; }
expect 0 "list" -- "$mmsim" list
grep -q "transpose-ip-v1b" "$tmp/out" || { echo "FAIL: list lacks transpose-ip-v1b"; fail=1; }
expect 2 "order missing" -- "$mmsim" run transpose-ip-v1 -w 8
expect 0 "-n as the order" -- "$mmsim" run transpose-ip-v1r -n 24 -w 8
expect 2 "order zero" -- "$mmsim" run transpose-ip-v1 --order 0 -w 8
expect 2 "order too large" -- "$mmsim" run transpose-ip-naive --order 5000
expect 2 "order not a number" -- "$mmsim" run transpose-ip-v1 --order abc
expect 2 "negative band" -- "$mmsim" run transpose-ip-v1b --order 64 --band -1
expect 2 "zero band" -- "$mmsim" run transpose-oop-v1bf --order 64 --band 0
expect 2 "zero region" -- "$mmsim" run transpose-ip-supergrid --order 64 --region 0
expect 2 "bad ways" -- "$mmsim" run transpose-ip-v1 --order 64 --tlb-entries 6 --tlb-ways 4
expect 2 "bad page" -- "$mmsim" run transpose-ip-v1 --order 64 --tlb-entries 8 --page-cells 0
expect 2 "rows missing" -- "$mmsim" run transpose-oop-nvidia -w 8
expect 2 "too many cells" -- "$mmsim" run transpose-oop-nvidia --rows 100000 --cols 100000
expect 2 "w too wide" -- "$mmsim" run transpose-ip-v1 --order 64 -w 128
expect 2 "bad resident" -- "$mmsim" run transpose-ip-v1 --order 64 --resident -3
exit $fail
