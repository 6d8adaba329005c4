#!/usr/bin/env bash
# Smoke test of the mmsim command line: the documented examples, and every bad input giving one
# line on stderr, nothing on stdout and exit status 2.
set -u
MMSIM=$1
# shellcheck source=cli_refusals.sh
source "$(dirname "$0")/cli_refusals.sh"

# expect_ok DESCRIPTION COMMAND... : exit 0
expect_ok() {
  local what=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err" || fail "$what: exit $? ($(head -1 "$tmp/err"))"
}

# expect_bad PATTERN COMMAND... : exit 2, exactly one line on stderr matching PATTERN, empty stdout
expect_bad() { expect_refused -q "$@"; }

json_value() { grep -o "\"$1\": [^,]*" "$tmp/out" | head -1 | sed 's/.*: //'; }

# KNI Fig. 2
expect_ok "access dmm" "$MMSIM" access --model dmm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --json
[ "$(json_value time_units)" = 7 ] || fail "DMM Fig. 2 example: time units $(json_value time_units), expected 7"
expect_ok "access umm" "$MMSIM" access --model umm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --json
[ "$(json_value time_units)" = 9 ] || fail "UMM Fig. 2 example: time units $(json_value time_units), expected 9"
expect_ok "access diagram" "$MMSIM" access --model dmm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9
grep -q "3 slots, 7 time units" "$tmp/out" || fail "access diagram lacks its summary line"

# The issue's acceptance run: simulated time equals the closed form, output correct.
expect_ok "run d-designated" "$MMSIM" run d-designated --perm random -n 65536 -w 32 -L 100 -k 8 --json
t=$(grep -o '^  "time_units": [0-9]*' "$tmp/out" | sed 's/.*: //')
p=$(json_value predicted_time_units)
[ -n "$t" ] && [ "$t" = "$p" ] || fail "d-designated: time_units '$t' != predicted '$p'"
grep -q '"correct": true' "$tmp/out" || fail "d-designated: output not correct"
for key in algorithm family paper parameters permutation n machine execution time_units predicted_time_units distribution distribution_inverse rounds phases figures correct; do
  grep -q "\"$key\":" "$tmp/out" || fail "run --json lacks key $key"
done
expect_ok "run s-designated async" "$MMSIM" run s-designated --perm bit-reversal -n 4096 -w 16 --async --json
grep -q '"correct": true' "$tmp/out" || fail "s-designated async: output not correct"
# Asynchronous time is at most the round-synchronous closed form (docs/model.md, "Rounds and barriers").
t=$(grep -o '^  "time_units": [0-9]*' "$tmp/out" | sed 's/.*: //')
p=$(json_value predicted_time_units)
[ -n "$t" ] && [ -n "$p" ] && [ "$t" -le "$p" ] || fail "s-designated async: time_units '$t' above the closed form '$p'"
printf '2\n0\n3\n1\n' >"$tmp/perm.txt"
expect_ok "run from file" "$MMSIM" run d-designated --perm-file "$tmp/perm.txt" -n 4 -w 2 --trace "$tmp/trace.csv"
[ "$(head -1 "$tmp/trace.csv")" = "round,kernel,name,array,op,memory,warp,slot,enter,complete,requests" ] ||
  fail "trace header: $(head -1 "$tmp/trace.csv")"
grep -q "^0,d-designated,read a,a,read,global,0,0,0,99,0 1$" "$tmp/trace.csv" || fail "trace file lacks the first round's first slot"
expect_ok "list" "$MMSIM" list --json
grep -q '"d-designated"' "$tmp/out" || fail "list lacks d-designated"
grep -q '"algorithms": \[' "$tmp/out" || fail "list --json lacks the algorithms"
expect_ok "run --help" "$MMSIM" run scheduled --help
grep -q -- "--schedule TEXT" "$tmp/out" || fail "run scheduled --help lacks --schedule"
grep -q -- "-k,--dmms INT=8" "$tmp/out" || fail "run scheduled --help lacks -k with its default"
expect_ok "table" "$MMSIM" table kasagi-t1 -n 4096 --format csv
# Every row: simulated time units equal to the closed form (difference 0) and the output correct; the
# asynchronous time is never above the round-synchronous one.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
         { if ($(col["difference"]) != 0 || $(col["correct"]) != "yes" ||
               $(col["async time units"]) + 0 > $(col["time units"]) + 0) bad = bad " " $1 "/" $2 }
         END { if (NR < 2 || bad != "") { print bad; exit 1 } }' "$tmp/out" ||
  fail "table kasagi-t1: a row differs from its closed form, is wrong, or is slower asynchronously"

# Bad input: one line, status 2.
expect_bad "w:" "$MMSIM" run d-designated --perm identical -n 64 -w 0
expect_bad "n: must be a multiple of w" "$MMSIM" run d-designated --perm identical -n 100 -w 32
expect_bad "power of two" "$MMSIM" run d-designated --perm bit-reversal -n 96 -w 32
expect_bad "perfect square" "$MMSIM" run d-designated --perm transpose -n 128 -w 32
expect_bad "d-designated: -l: must be an integer in \[1, 2^20\]" "$MMSIM" run d-designated --perm identical -n 64 -l 0
expect_bad "d-designated: -L: must be" "$MMSIM" run d-designated --perm identical -n 64 -L 0
expect_bad "d-designated: -k: must be" "$MMSIM" run d-designated --perm identical -n 64 -k 0
expect_bad "d-designated: -k: must be an integer in \[1, 4096\] (got '100000000')" "$MMSIM" run d-designated -n 1024 -k 100000000
expect_bad "'-m' is not an option of run d-designated" "$MMSIM" run d-designated -n 1024 -m 4
expect_bad "'--layout' is not an option of run scheduled" "$MMSIM" run scheduled -n 1024 --layout raw
expect_bad "--seed: must be an integer in \[0, 2^63 - 1\] (got '-1')" "$MMSIM" run d-designated -n 64 --seed -1
expect_bad "--seed: must be" "$MMSIM" run d-designated -n 64 --seed 18446744073709551616
expect_bad "--seed: must be" "$MMSIM" run d-designated -n 64 --seed ''
expect_bad "-n: must be" "$MMSIM" run d-designated -n 0x40
expect_bad "-n: must be" "$MMSIM" run d-designated -n +64
expect_bad "run: name an algorithm" "$MMSIM" run
expect_bad "d-designated: --trace '/dev/stdout' is standard output" "$MMSIM" run d-designated -n 64 --json --trace /dev/stdout
"$MMSIM" run d-designated -n 64 --json --trace "$tmp/same.txt" >"$tmp/same.txt" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "is standard output" "$tmp/err" || fail "--trace to the file stdout goes to was not refused"
expect_bad "run: unknown algorithm 'no-such'" "$MMSIM" run no-such --perm identical -n 64
expect_bad "--perm: must be one of identical, shuffle, bit-reversal, transpose, random (got 'sideways')" "$MMSIM" run d-designated --perm sideways -n 64
expect_bad "d-designated: -n is required" "$MMSIM" run d-designated --perm identical
expect_bad "-n: must be an integer in \[1, 2^28\] (got 'abc')" "$MMSIM" run d-designated --perm identical -n abc
printf '2\n0\nx\n1\n' >"$tmp/bad1.txt"
expect_bad "bad1.txt:3: not a number" "$MMSIM" run d-designated --perm-file "$tmp/bad1.txt" -n 4 -w 2
printf '2\n0\n9\n1\n' >"$tmp/bad2.txt"
expect_bad "bad2.txt:3: 9 out of range" "$MMSIM" run d-designated --perm-file "$tmp/bad2.txt" -n 4 -w 2
printf '2\n0\n2\n1\n' >"$tmp/bad3.txt"
expect_bad "bad3.txt:3: 2 duplicate of line 1" "$MMSIM" run d-designated --perm-file "$tmp/bad3.txt" -n 4 -w 2
printf '2\n0\n1\n' >"$tmp/bad4.txt"
expect_bad "wrong count" "$MMSIM" run d-designated --perm-file "$tmp/bad4.txt" -n 4 -w 2
expect_bad "cannot read" "$MMSIM" run d-designated --perm-file "$tmp/missing.txt" -n 4 -w 2
expect_bad "--model" "$MMSIM" access --model xmm --warp 1,2
expect_bad "more than w" "$MMSIM" access --model dmm -w 2 --warp 1,2,3
expect_bad "not an address" "$MMSIM" access --model dmm -w 4 --warp 1,zz
expect_bad "latency: must be an integer in" "$MMSIM" access --model umm -w 4 -l 0 --warp 1,2
expect_bad "table: unknown 'nope'" "$MMSIM" table nope
# A table takes only the options it declares, each with the table's own rule.
expect_bad "table rap-t2: -w is not an option of this table (it takes --trials, --seed)" "$MMSIM" table rap-t2 -w 1
expect_bad "table enumeration-tlb: --seed is not an option of this table" "$MMSIM" table enumeration-tlb --seed 2
expect_bad "table kasagi-t1: --trials is not an option of this table" "$MMSIM" table kasagi-t1 --trials 5
expect_bad "table rap-t3: -w: must be an integer in \[2, 256\] (got '0')" "$MMSIM" table rap-t3 -w 0
expect_bad "table as-bounds: -w: must be a power of two in \[1, 128\] (got '256')" "$MMSIM" table as-bounds -w 256
expect_bad "table bmmc-sizes: -w: must be a power of two" "$MMSIM" table bmmc-sizes -w 12
expect_bad "table rap-t1: --trials: must be an integer in \[1, 1000000\]" "$MMSIM" table rap-t1 --trials 16777216
expect_bad "table kasagi-t1: -n: must be an integer in \[1, 2^24\]" "$MMSIM" table kasagi-t1 -n 67108864
expect_bad "table rap-t2: --seed: must be" "$MMSIM" table rap-t2 --seed -1
expect_bad "--format" "$MMSIM" table kasagi-t1 --format xml
expect_bad "" "$MMSIM" frobnicate
expect_bad "" "$MMSIM"

echo "cli smoke: $failures failed"
[ "$failures" -eq 0 ]
