#!/usr/bin/env bash
# CLI checks of the enumeration-scheme transpositions (GL): runs, values read from their reports, and
# exit status 2 with one line on stderr for bad input.
set -u
mmsim="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
# json PATTERN: the JSON report, blanks removed, matches PATTERN.
json() { tr -d ' \n' <"$tmp/out" | grep -q -- "$1" || { echo "FAIL: JSON lacks '$1'"; cat "$tmp/out"; fail=1; }; }
# 45 x 45 with w = 8: a 6 x 6 tile grid, 21 tile pairs on or below the diagonal.
expect 0 "ip-naive" -- "$mmsim" run transpose-ip-naive --order 45 -w 8 -k 2 --json
json '"correct":true}$'
json '"n":2025,"permutation":"transpose",'
json '"figures":{"matrix":"45x45","blocks":36,"idle_blocks":15,"launches":1,'
expect 0 "ip-supergrid" -- "$mmsim" run transpose-ip-supergrid --order 45 -w 8 -k 2 --region 2 --json
json '"correct":true}$'
json '"blocks":24,"idle_blocks":3,"launches":6,'
for a in transpose-ip-v1 transpose-ip-v1r; do
  expect 0 "$a" -- "$mmsim" run "$a" --order 45 -w 8 -k 2 --json
  json '"correct":true}$'
  json '"blocks":21,"idle_blocks":0,"launches":1,'
done
expect 0 "ip-v1b" -- "$mmsim" run transpose-ip-v1b --order 45 -w 8 -k 2 --band 2
grep -q "^output correct: *yes" "$tmp/out" || { echo "FAIL: transpose-ip-v1b not correct"; fail=1; }
grep -q "^band: 2 tiles" "$tmp/out" || { echo "FAIL: transpose-ip-v1b band"; fail=1; }
# 64 x 64, w = 8: 1024 coalesced global slots, plus 16 per TLB miss (8 misses: one per 512-cell page).
expect 0 "ip async tlb json" -- "$mmsim" run transpose-ip-v1b --order 64 -w 8 --async --resident 1 --tlb-entries 8 --page-cells 512 --json
json '"correct":true}$'
json '"execution":"asynchronous"'
json '"parameters":{"w":8,"l":1,"L":100,"k":8,"order":64,"band":8,"resident":1,"tlb_entries":8,"page_cells":512,"tlb_ways":4,"tlb_penalty":16}'
json '"global_slots":1152,"tlb":"8entries,4-wayLRU,pagesof512cells,16slotspermiss","tlb_lookups":1024,"tlb_hits":1016,"tlb_misses":8}'
expect 0 "oop nvidia" -- "$mmsim" run transpose-oop-nvidia --rows 20 --cols 37 -w 8 --json
json '"correct":true}$'
json '"n":740,'
json '"matrix":"20x37","blocks":15,'
expect 0 "oop banded trace" -- "$mmsim" run transpose-oop-v1bf --rows 20 --cols 37 -w 8 --band 3 --async --trace "$tmp/t.csv"
grep -q "^output correct: *yes" "$tmp/out" || { echo "FAIL: transpose-oop-v1bf not correct"; fail=1; }
[ "$(head -1 "$tmp/t.csv")" = "round,kernel,name,array,op,memory,warp,slot,enter,complete,requests" ] || { echo "FAIL: trace header"; fail=1; }
grep -q "^0,transpose-oop-v1bf,read tile,in+out,read,global," "$tmp/t.csv" || { echo "FAIL: trace rows"; fail=1; }
expect 0 "oop square from --order" -- "$mmsim" run transpose-oop-v1bf --order 16 -w 8 --json
json '"matrix":"16x16"'
# TW: 45 x 45 has 990 entries below the diagonal, 16 blocks of 64 threads.
expect 0 "ip-tw" -- "$mmsim" run transpose-ip-tw --order 45 -w 8 --json
json '"correct":true}$'
json '"figures":{"matrix":"45x45","blocks":16,"idle_blocks":0,"launches":1,'
# 3D: three 45 x 45 planes (slices) of 6 x 6 tiles, 21 tile pairs each on or below the diagonal.
for inv in yxz zyx; do
  expect 0 "3d $inv naive" -- "$mmsim" run transpose3d-$inv-naive --order 45 --depth 3 -w 8 -k 2 --json
  json '"correct":true}$'
  json '"n":6075,"permutation":"transpose3d-'$inv'",'
  json '"blocks":108,"idle_blocks":45,"launches":1,'
  expect 0 "3d $inv v1b" -- "$mmsim" run transpose3d-$inv-v1b --order 45 --depth 3 -w 8 --band 2 --async --json
  json '"correct":true}$'
  json '"band":2,"blocks":63,"idle_blocks":0,"launches":1,'
done
json '"matrix":"45x3x45"'
expect 2 "3d depth zero" -- "$mmsim" run transpose3d-yxz-v1b --order 45 --depth 0
expect 2 "3d too many cells" -- "$mmsim" run transpose3d-zyx-naive --order 4096 --depth 2
grep -q "^mmsim: transpose3d-zyx-naive: --order, --depth: the matrix must have at most 2^24 cells (got 4096 x 4096 x 2)$" "$tmp/err" || { echo "FAIL: 3d cells line"; cat "$tmp/err"; fail=1; }
expect 2 "3d order missing" -- "$mmsim" run transpose3d-yxz-naive --depth 2
expect 2 "band on 3d naive" -- "$mmsim" run transpose3d-yxz-naive --order 64 --band 2
expect 2 "depth on 2d" -- "$mmsim" run transpose-ip-v1b --order 64 --depth 2
expect 0 "list" -- "$mmsim" list
grep -q "^| option | --tlb-entries E .* | GL Sect. 3.1 |$" "$tmp/out" || { echo "FAIL: list lacks --tlb-entries"; fail=1; }
grep -q "^| transpose-ip-tw | enumeration | hmm | GL Sect. 3.2, 7 (TW) |" "$tmp/out" || { echo "FAIL: list lacks TW"; fail=1; }
for a in yxz-naive yxz-v1b zyx-naive zyx-v1b; do
  grep -q "^| transpose3d-$a | enumeration | hmm | GL Sect. 3.3, .* | -w -l -L -k --order --depth " "$tmp/out" || { echo "FAIL: list lacks transpose3d-$a"; fail=1; }
done
grep -q "^| figure | enumeration-3d | .* | GL Figs. 14-15 |$" "$tmp/out" || { echo "FAIL: list lacks figure enumeration-3d"; fail=1; }
grep -q "^| gpu | mmsim gpu enumeration | .* | GL Sect. 7, Figs. 9-15 |$" "$tmp/out" || { echo "FAIL: list lacks the GPU line"; fail=1; }
expect 0 "run --help" -- "$mmsim" run --help
for a in transpose-ip-naive transpose-ip-supergrid transpose-ip-v1 transpose-ip-v1r transpose-ip-v1b transpose-ip-tw \
  transpose-oop-nvidia transpose-oop-v1bf transpose3d-yxz-naive transpose3d-yxz-v1b transpose3d-zyx-naive transpose3d-zyx-v1b; do
  grep -q "^  $a " "$tmp/out" || { echo "FAIL: mmsim run lacks $a"; fail=1; }
done
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
# Bounds a user found silently accepted before: now refused by the declared range.
expect 2 "huge band" -- "$mmsim" run transpose-ip-v1b --order 64 --band 2147483648
grep -q "^mmsim: transpose-ip-v1b: --band: must be an integer in \[1, 2^24\] (got '2147483648')$" "$tmp/err" || { echo "FAIL: band line"; cat "$tmp/err"; fail=1; }
expect 2 "huge page" -- "$mmsim" run transpose-ip-v1 --order 64 --page-cells 4294967296
grep -q -- "--page-cells: must be an integer in \[1, 2^24\]" "$tmp/err" || { echo "FAIL: page line"; cat "$tmp/err"; fail=1; }
expect 2 "huge tlb" -- "$mmsim" run transpose-ip-v1 --order 64 --tlb-entries 2097152
expect 2 "huge resident" -- "$mmsim" run transpose-ip-v1 --order 64 --resident 2097152
expect 2 "huge penalty" -- "$mmsim" run transpose-ip-v1 --order 64 --tlb-penalty 100001
expect 2 "page past 2^24 cells" -- "$mmsim" run transpose-oop-nvidia --rows 4 --cols 8 -w 63 --tlb-entries 4 --page-cells 16777216
# Each transposition takes only the options it reads.
expect 2 "band on naive" -- "$mmsim" run transpose-ip-naive --order 64 --band 2
grep -q "'--band' is not an option of run transpose-ip-naive" "$tmp/err" || { echo "FAIL: --band line"; cat "$tmp/err"; fail=1; }
expect 2 "band on nvidia" -- "$mmsim" run transpose-oop-nvidia --order 64 --band 2
expect 2 "region on v1" -- "$mmsim" run transpose-ip-v1 --order 64 --region 2
expect 2 "rows in place" -- "$mmsim" run transpose-ip-v1b --rows 64
expect 2 "seed" -- "$mmsim" run transpose-ip-v1 --order 64 --seed 3
exit $fail
