#!/usr/bin/env bash
# KNI Table 1's bounds beside GPU times, without a GPU: `mmsim table1-bounds` on a small made-up
# kasagi-t2.csv gives, for each row, the time units the simulator itself takes for that run on the
# profile's machine; scripts/gpu_table1_figures.sh fits made-up times to their known constants.
#   cli_table1_bounds.sh MMSIM PROFILE SCRIPT
mmsim=$1
profile=$2
script=$3
source "$(dirname "$0")/../cli_lib.sh"

# The bound of each Table 1 row against the simulated run on the same machine (n = 2^16, seed 1).
mkdir -p "$tmp/measured"
cat >"$tmp/measured/kasagi-t2.csv" <<'CSV'
type,sqrt(n),permutation,algorithm,ms,ratio to D identical,% of copy,GB/s,correct,GTX 680 ratio (paper)
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
while IFS=, read -r row kernel type perm n ms d di bound; do
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

# The fit through the origin. d-designated float: ms = 3e-6 x bound exactly. in-place double:
# (1, 2), (2, 4), (3, 7) give c = sum xy / sum xx = 31/14, residuals -3/14, -6/14, 5/14, so
# R^2 = 1 - (70/196) / (114/9) and the largest |ms / fit - 1| is 3/31 (at bound 1 and 2); from
# n = 2^22 on only the last point counts: 5/93.
mkdir -p "$tmp/fit"
cat >"$tmp/fit/table1-bounds.csv" <<'CSV'
row,kernel,type,permutation,n,ms,distribution,distribution_inverse,bound_time_units
d-designated,d-designated,float,random,65536,0.003,,,1000
d-designated,d-designated,float,random,262144,0.006,,,2000
d-designated,d-designated,float,identical,1048576,0.012,,,4000
in-place,in-place,double,transpose,65536,2,,,1
in-place,in-place,double,transpose,262144,4,,,2
in-place,in-place,double,shuffle,4194304,7,,,3
CSV
ok env MMSIM_NO_PLOT=1 bash "$script" "$tmp/fit"
near() {  # near WHAT GOT WANT: |got - want| <= 1e-5 |want| (or 1e-9 when want is 0)
  awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; t = w < 0 ? -w : w; exit !(d <= (t > 0 ? 1e-5 * t : 1e-9)) }' ||
    { echo "FAIL: $1 is $2, wanted $3"; fail=1; }
}
field() { awk -F, -v k="$1" -v c="$2" '$1 == k { print $c }' "$tmp/fit/table1_bounds_fit.csv"; }
near "d-designated c" "$(field d-designated 7)" 3e-6
near "d-designated R^2" "$(field d-designated 8)" 1
near "d-designated residual" "$(field d-designated 9)" 0
near "in-place c" "$(field in-place 7)" "$(awk 'BEGIN { print 31 / 14 }')"
near "in-place R^2" "$(field in-place 8)" "$(awk 'BEGIN { print 1 - (70 / 196) / (114 / 9) }')"
near "in-place residual" "$(field in-place 9)" "$(awk 'BEGIN { print 3 / 31 }')"
near "in-place residual from 2^22" "$(field in-place 12)" "$(awk 'BEGIN { print 5 / 93 }')"  # 7 against 93/14
[ "$(field in-place 4),$(field in-place 5),$(field in-place 6)" = "3,65536,4194304" ] ||
  { echo "FAIL: in-place points and sizes: $(grep in-place "$tmp/fit/table1_bounds_fit.csv")"; fail=1; }
[ "$(grep -c '^in-place double' "$tmp/fit/table1_bounds.dat")" = 3 ] || { echo "FAIL: .dat lacks the points"; fail=1; }
if command -v gnuplot >/dev/null; then
  ok bash "$script" "$tmp/fit"
  [ -s "$tmp/fit/table1_bounds.png" ] && [ -s "$tmp/fit/table1_bounds.svg" ] || { echo "FAIL: no figure"; fail=1; }
fi
bad bash "$script" "$tmp/nowhere"
echo 'd-designated,d-designated,float,random,65536,0,,,1000' >>"$tmp/fit/table1-bounds.csv"
bad env MMSIM_NO_PLOT=1 bash "$script" "$tmp/fit"
exit $fail
