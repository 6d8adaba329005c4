#!/usr/bin/env bash
# `mmsim gpu-goals` decides held / missed by the goals' own thresholds, on made-up CSVs whose cells
# sit just inside and just outside each goal.
set -euo pipefail
mmsim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bench_header='type,sqrt_n,n,kernel,permutation,launches,median_ms,min_ms,max_ms,gb_per_s,percent_of_copy,correct,note'
{
  echo "$bench_header"
  # 2^24 float random: copy 1 ms, the best scheduled 3.4 ms (within 3.5x), conventional 3.45 and 5 ms.
  echo 'float,4096,16777216,copy,-,1,1,1,1,1,100,yes,'
  echo 'float,4096,16777216,d-designated,random,1,5,5,5,1,20,yes,'
  echo 'float,4096,16777216,s-designated,random,1,3.45,3,4,1,29,yes,'
  echo 'float,4096,16777216,scheduled-paper,random,5,3.6,3,4,1,28,yes,'
  echo 'float,4096,16777216,scheduled-pipelined,random,5,3.4,3,4,1,29,yes,'
  # 2^24 float bit-reversal: the best scheduled 3.6 ms (outside 3.5x) and slower than S-designated.
  echo 'float,4096,16777216,d-designated,bit-reversal,1,5,5,5,1,20,yes,'
  echo 'float,4096,16777216,s-designated,bit-reversal,1,3.5,3,4,1,29,yes,'
  echo 'float,4096,16777216,scheduled-pipelined,bit-reversal,5,3.6,3,4,1,28,yes,'
  # A wrong result never counts: this 1 ms scheduled run failed its check.
  echo 'float,4096,16777216,scheduled-fused,bit-reversal,3,1,1,1,1,100,no,'
} >"$dir/bench.csv"
{
  echo 'device,log2_n,n,permutation,kernel,launches,over_bits,iters,median_ms,min_ms,max_ms,runs,copy_ms,pct_of_copy_bandwidth,copy_over_time_pct,speedup_over_naive,goal_pct,goal,correct,mismatches,first_mismatch'
  echo '"dev (9.0, 132 SMs)",22,4194304,bit-reversal,tile-banks-iters,1,0,3,1,1,1,100,0.9,90,90.0,1,90,held,yes,0,'
  echo '"dev (9.0, 132 SMs)",23,8388608,bit-reversal,tile-banks-iters,1,0,3,1,1,1,100,0.899,89.9,89.9,1,90,missed,yes,0,'
  echo '"dev (9.0, 132 SMs)",21,2097152,bit-reversal,tile-banks-iters,1,0,3,1,1,1,100,0.5,50,50,1,90,missed,yes,0,'
} >"$dir/bmmc.csv"
out=$("$mmsim" gpu-goals "$dir")
fail() { echo "gpu_goals_test: $1" >&2; echo "$out" >&2; exit 1; }
grep -q '^device: dev (9.0, 132 SMs)  $' <<<"$out" || fail "the device is the first BMMC row's, its commas kept"
grep -q '^| float | random | 2^24 | 1 | 5 | 3.45 | scheduled-pipelined | 3.4 | 3.40 | 3.75 | held | held |$' <<<"$out" \
  || fail "the random cell should hold both goals"
grep -q '^| float | bit-reversal | 2^24 | 1 | 5 | 3.5 | scheduled-pipelined | 3.6 | 3.60 | 3.75 | missed | missed |$' <<<"$out" \
  || fail "the bit-reversal cell should miss both goals (the failed fused run must not count)"
grep -q '^| 2^22 | 1 | 0.9 | 90.0 | held |$' <<<"$out" || fail "90.0 % should hold the BMMC goal"
grep -q '^| 2^23 | 1 | 0.899 | 89.9 | missed |$' <<<"$out" || fail "89.9 % should miss the BMMC goal"
! grep -q '2^21' <<<"$out" || fail "sizes below 2^22 are outside the BMMC goal"
grep -q 'held at 1 of 2 sizes' <<<"$out" || fail "BMMC summary"
grep -q 'within 3.5x: held in 1 of 2 cells; faster than both conventional: held in 1 of 2' <<<"$out" || fail "summary"
# A missing folder, a missing column and a malformed line are each one line and status 2.
one_line_status_2() {
  local err rc
  set +e
  err=$("$mmsim" gpu-goals "$1" 2>&1 >/dev/null)
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] || fail "$2: status $rc, message '$err'"
}
one_line_status_2 "$dir/none" "a missing folder"
mkdir "$dir/bad"
cp "$dir/bmmc.csv" "$dir/bad/"
sed 's/median_ms/median ms/' "$dir/bench.csv" >"$dir/bad/bench.csv"
one_line_status_2 "$dir/bad" "a missing column"
{ cat "$dir/bench.csv"; echo 'float,"4096,16777216,copy,-,1,1,1,1,1,100,yes,'; } >"$dir/bad/bench.csv"
one_line_status_2 "$dir/bad" "an unclosed quote"
echo "gpu_goals_test: ok"
