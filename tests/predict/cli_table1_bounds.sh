#!/usr/bin/env bash
# KNI Table 1's bounds beside GPU times, without a GPU: `mmsim table1-bounds` on a small made-up
# kasagi-t2.csv gives, for each row, the time units the simulator itself takes for that run on the
# profile's machine (the fit of the times to the bounds: tests/cli_measured.sh).
#   cli_table1_bounds.sh MMSIM PROFILE
mmsim=$1
profile=$2
source "$(dirname "$0")/../cli_lib.sh"

# The bound of each Table 1 row against the simulated run on the same machine (n = 2^16, seed 1).
mkdir -p "$tmp/measured"
cat >"$tmp/measured/kasagi-t2.csv" <<'CSV'
type,sqrt_n,permutation,algorithm,ms,ratio_to_d_identical,percent_of_copy,gb_per_s,correct,gtx_680_ratio_paper
float,256,random,d-designated,0.009,1,100,1,yes,
double,256,shuffle,s-designated,0.008,1,100,1,yes,
float,256,bit-reversal,in-place,0.007,1,100,1,yes,
float,256,random,scheduled-fused,0.02,1,100,1,yes,
CSV
ok "$mmsim" table1-bounds --profile "$profile" --measured "$tmp/measured" --threads 2 --format csv --out "$tmp/b"
[ -s "$tmp/b/table1-bounds.csv" ] && [ -s "$tmp/b/table1-bounds.md" ] || { echo "FAIL: --out wrote no table"; fail=1; }
[ "$(wc -l <"$tmp/out")" = 5 ] || { echo "FAIL: wanted 4 runs"; cat "$tmp/out"; fail=1; }
machine=$(grep -A5 '"machine"' "$profile" | tr -d ' ,"' |
  awk -F: '$1 == "w" { w = $2 } $1 == "l" { l = $2 } $1 == "L" { L = $2 } $1 == "k" { k = $2 } END { print "-w", w, "-l", l, "-L", L, "-k", k }')
while IFS=, read -r row kernel type perm n ms d di bound _; do
  [ "$row" = row ] && continue
  case $row in in-place) alg=$perm ;; *) alg=$row ;; esac
  # shellcheck disable=SC2086  # $machine is four options
  ok "$mmsim" run "$alg" -n "$n" --perm "$perm" $machine --seed 1
  simulated=$(awk -F: '/^time units:/ { gsub(/ /, "", $2); print $2 }' "$tmp/out")
  [ "$simulated" = "$bound" ] || { echo "FAIL: $row $perm: bound $bound, simulated $simulated time units"; fail=1; }
done <"$tmp/b/table1-bounds.csv"
echo 'float,100,random,d-designated,0.009,1,100,1,yes,' >>"$tmp/measured/kasagi-t2.csv"
bad "$mmsim" table1-bounds --profile "$profile" --measured "$tmp/measured"
bad "$mmsim" table1-bounds --profile "$profile" --measured "$tmp/nowhere"
bad "$mmsim" table1-bounds --profile "$tmp/none.json" --measured "$tmp/measured"

exit $fail
