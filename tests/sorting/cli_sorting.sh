#!/usr/bin/env bash
# CLI checks of the papers/003 family: runs, JSON keys, and exit status 2 with one line for bad input.
set -u
mmsim="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
expect 0 "sort" -- "$mmsim" run as-sort -w 8 -m 16 --seed 3
expect 0 "partition json" -- "$mmsim" run as-partition -w 8 -m 8 --json
grep -q '"cac_violations": 0' "$tmp/out" || { echo "FAIL: cac_violations missing"; fail=1; }
grep -q '"correct": true' "$tmp/out" || { echo "FAIL: correct missing"; fail=1; }
expect 0 "permute" -- "$mmsim" run as-permute -w 16 -m 4 --json
expect 0 "baseline" -- "$mmsim" run as-sort-bitonic -w 8 -m 8
printf '%s\n' 5 3 9 1 0 2 8 7 > "$tmp/keys"
expect 0 "keys file" -- "$mmsim" run as-sort -w 2 -m 4 --keys-file "$tmp/keys"
expect 2 "w not a power of two" -- "$mmsim" run as-sort -w 6 -m 8
expect 2 "m not a power of two" -- "$mmsim" run as-sort -w 8 -m 12
expect 2 "m missing" -- "$mmsim" run as-partition -w 8
printf '%s\n' 5 3 x 1 0 2 8 7 > "$tmp/bad"
expect 2 "bad key" -- "$mmsim" run as-sort -w 2 -m 4 --keys-file "$tmp/bad"
grep -q "line 3" "$tmp/err" || { echo "FAIL: bad line not named"; fail=1; }
expect 2 "short file" -- "$mmsim" run as-sort -w 4 -m 4 --keys-file "$tmp/keys"
expect 2 "missing file" -- "$mmsim" run as-sort -w 2 -m 4 --keys-file "$tmp/none"
expect 2 "bad partition labels" -- "$mmsim" run as-partition -w 2 -m 4 --keys-file "$tmp/keys"
exit $fail
