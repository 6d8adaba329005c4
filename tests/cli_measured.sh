#!/usr/bin/env bash
# The commands that read a GPU folder, on made-up CSVs whose answers are known: `mmsim fit-bounds
# table1|as`, `mmsim gpu-speedups`, `mmsim gpu-throughput` (their bad inputs one line and status 2),
# the scripts that draw their figures where gnuplot is, and the committed GPU folders: their fits,
# points and goals page are what the commands make again from the folders' CSVs.
#   cli_measured.sh MMSIM ROOT
mmsim=$1
root=$2
source "$(dirname "$0")/cli_lib.sh"
near() {  # near WHAT GOT WANT: |got - want| <= 1e-5 |want| (or 1e-9 when want is 0)
  awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; t = w < 0 ? -w : w; exit !(d <= (t > 0 ? 1e-5 * t : 1e-9)) }' ||
    { echo "FAIL: $1 is $2, wanted $3"; fail=1; }
}
same() {  # same WHAT GOT WANT
  [ "$2" = "$3" ] || { echo "FAIL: $1 is '$2', wanted '$3'"; fail=1; }
}

# KNI Table 1: the fit through the origin. d-designated float: ms = 3e-6 x bound exactly. in-place
# double: (1, 2), (2, 4), (3, 7) give c = sum xy / sum xx = 31/14, residuals -3/14, -6/14, 5/14, so
# R^2 = 1 - (70/196) / (114/9) and the largest |ms / fit - 1| is 3/31 (at bound 1 and 2); from
# n = 2^22 on only the last point counts: 5/93. The columns are found by name, in any order.
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
ok "$mmsim" fit-bounds table1 "$tmp/fit" --format csv
cmp -s "$tmp/out" "$tmp/fit/table1_bounds_fit.csv" || { echo "FAIL: --format csv is not the fit's CSV"; fail=1; }
field() { awk -F, -v k="$1" -v c="$2" '$1 == k { print $c }' "$tmp/fit/table1_bounds_fit.csv"; }
near "d-designated c" "$(field d-designated 7)" 3e-6
near "d-designated R^2" "$(field d-designated 8)" 1
near "d-designated residual" "$(field d-designated 9)" 0
same "d-designated residual from 2^22" "$(field d-designated 12)" nan  # no n >= 2^22
near "in-place c" "$(field in-place 7)" "$(awk 'BEGIN { print 31 / 14 }')"
near "in-place R^2" "$(field in-place 8)" "$(awk 'BEGIN { print 1 - (70 / 196) / (114 / 9) }')"
near "in-place residual" "$(field in-place 9)" "$(awk 'BEGIN { print 3 / 31 }')"
near "in-place residual from 2^22" "$(field in-place 12)" "$(awk 'BEGIN { print 5 / 93 }')"  # 7 against 93/14
same "in-place points and sizes" "$(field in-place 4),$(field in-place 5),$(field in-place 6)" "3,65536,4194304"
same "in-place worst" "$(field in-place 10),$(field in-place 11)" "transpose,65536"
[ "$(grep -c '^in-place double' "$tmp/fit/table1_bounds.dat")" = 3 ] || { echo "FAIL: .dat lacks the points"; fail=1; }
grep -q '^in-place double shuffle 4194304 3 7 6.642857143 0.0537634$' "$tmp/fit/table1_bounds.dat" ||
  { echo "FAIL: the .dat's last point"; cat "$tmp/fit/table1_bounds.dat"; fail=1; }
ok "$mmsim" fit-bounds table1 "$tmp/fit" --format gnuplot
grep -q '^array kernel\[2\] = \["d-designated", "in-place"\]$' "$tmp/out" || { echo "FAIL: the panels"; cat "$tmp/out"; fail=1; }
grep -q '^array c_double\[2\] = \[NaN, 2.21429\]$' "$tmp/out" || { echo "FAIL: the fitted constants"; cat "$tmp/out"; fail=1; }
grep -q '^array label_double\[2\] = \["", "double: c = 2.21 ms/unit, R^2 = 0.9718, max |res| 0.0968, from 2^{22} 0.0538"\]$' \
  "$tmp/out" || { echo "FAIL: the labels"; cat "$tmp/out"; fail=1; }
# One point leaves no spread: R^2 is nan.
mkdir -p "$tmp/one"
head -2 "$tmp/fit/table1-bounds.csv" >"$tmp/one/table1-bounds.csv"
ok "$mmsim" fit-bounds table1 "$tmp/one" --format json
grep -q '"r2": "nan"' "$tmp/out" || { echo "FAIL: one point's R^2"; cat "$tmp/out"; fail=1; }

# AS: as-sort's cycles are 10 x m log2(m w) and its steps 2 x; a failed run never counts, and
# as-permute, with no checked row, is not fitted.
mkdir -p "$tmp/as"
cat >"$tmp/as/as-gpu.csv" <<'CSV'
algorithm,w,m,instances,sim_steps,gpu_cycles_per_instance,cycles_per_step,ms,correct,sim_time_units,gpu_cycles_alone,cycles_per_step_alone,cycles_per_time_unit_alone
as-sort,32,4,1,56,0,0,0,yes,0,280,0,0
as-sort,32,8,1,128,0,0,0,yes,0,640,0,0
as-sort,32,16,1,1,0,0,0,no,0,99999999,0,0
as-partition,32,4,1,10,0,0,0,yes,0,100,0,0
as-permute,32,4,1,10,0,0,0,no,0,100,0,0
CSV
ok "$mmsim" fit-bounds as "$tmp/as" --format csv
grep -q '^as-sort,m log_2(m w),2,10,2,' "$tmp/out" || { echo "FAIL: as-sort's fit"; cat "$tmp/out"; fail=1; }
grep -q 'no checked as-permute rows' "$tmp/err" || { echo "FAIL: as-permute should be named as not fitted"; fail=1; }
[ ! -e "$tmp/as/as_permute_bound.dat" ] || { echo "FAIL: as-permute has a .dat"; fail=1; }
grep -q '^# fitted: cycles = 10 \* m log_2(m w); simulated steps = 2 \* m log_2(m w)$' "$tmp/as/as_sort_bound.dat" &&
  grep -q '^32 8 64 640 640 128 10$' "$tmp/as/as_sort_bound.dat" || { echo "FAIL: as_sort_bound.dat"; cat "$tmp/as/as_sort_bound.dat"; fail=1; }
# as-partition at m = 4, w = 32: log_4 32 = 2.5, so the expression is 4 x 2.5^3 = 62.5.
grep -q '^32 4 62.5 100 100 10 1.6$' "$tmp/as/as_partition_bound.dat" || { echo "FAIL: as_partition_bound.dat"; fail=1; }

# BDS Fig. 11: the speed-ups from the times; the device's commas survive; a kernel that did not
# run is NaN; a CSV whose own column disagrees is refused.
mkdir -p "$tmp/bmmc"
bmmc_header='device,log2_n,n,permutation,kernel,launches,over_bits,iters,median_ms,min_ms,max_ms,runs,copy_ms,pct_of_copy_bandwidth,copy_over_time_pct,speedup_over_naive,goal_pct,goal,correct,mismatches,first_mismatch'
{
  echo "$bmmc_header"
  echo '"GPU (9.0, 132 SMs)",20,1048576,random BPC,naive,1,-,0,2,2,2,100,1,50,50,1,,,yes,0,'
  echo '"GPU (9.0, 132 SMs)",20,1048576,random BPC,tile,1,1,0,1,1,1,100,1,50,50,2,,,yes,0,'
  echo '"GPU (9.0, 132 SMs)",20,1048576,random BPC,tile-banks,1,1,0,0.5,1,1,100,1,50,50,4,,,yes,0,'
  echo '"GPU (9.0, 132 SMs)",20,1048576,random BPC,tile-banks-iters,1,1,0,0.1,1,1,100,1,50,50,20,,,no,1,'
} >"$tmp/bmmc/bmmc.csv"
ok "$mmsim" gpu-speedups "$tmp/bmmc" --format gnuplot
grep -q '^device = "GPU (9.0, 132 SMs)"$' "$tmp/out" || { echo "FAIL: the device"; cat "$tmp/out"; fail=1; }
grep -q '^"random BPC" 20 2.0000 4.0000 NaN$' "$tmp/bmmc/bmmc_speedup.dat" || { echo "FAIL: bmmc_speedup.dat"; cat "$tmp/bmmc/bmmc_speedup.dat"; fail=1; }
sed 's/,2,,,yes,0,$/,3,,,yes,0,/' "$tmp/bmmc/bmmc.csv" >"$tmp/bmmc-said.csv"
mkdir -p "$tmp/said" && mv "$tmp/bmmc-said.csv" "$tmp/said/bmmc.csv"
bad "$mmsim" gpu-speedups "$tmp/said"
grep -q 'speed-up of tile on random BPC at 2^20 is 2 from the times but 3 in the CSV' "$tmp/err" || { echo "FAIL: $(cat "$tmp/err")"; fail=1; }

# GL: measured rows only, in the figure's order; the heat map's unmeasured cell is NaN and the
# colour scale is rounded out to 100 GB/s.
mkdir -p "$tmp/enum"
cat >"$tmp/enum/enumeration.csv" <<'CSV'
kind,algorithm,rows,cols,band,region,median_ms,min_ms,max_ms,gbps,runs,mismatches,status
out-of-place,nvidia,1024,1024,0,0,1,1,1,500.5,10,0,ok
in-place,naive,1024,1024,0,0,1,1,1,936.23,10,0,ok
in-place,naive,2048,2048,0,0,1,1,1,0,10,5,WRONG
in-place,naive,4096,4096,0,0,1,1,1,900,10,0,ok
CSV
printf 'rows\\cols,4096,8192\n4096,250.5,0\n8192,1999,1234\n' >"$tmp/enum/enumeration_heatmap_v1bf.csv"
ok "$mmsim" gpu-throughput "$tmp/enum" --format csv
# (each row ends with the build that made it: mmsim_version and mmsim_commit, cut off here)
same "the measured rows" "$(sed 's/,[^,]*,[^,]*$//' "$tmp/out" | tr '\n' ' ')" \
  "kind,algorithm,depth,order,gbps in-place,naive,,1024,936.23 in-place,naive,,4096,900 out-of-place,nvidia,,1024,500.5 "
ok "$mmsim" gpu-throughput "$tmp/enum" --format gnuplot
grep -q '^array square_title\[2\] = \["IP naive", "OOP nvidia"\]$' "$tmp/out" || { echo "FAIL: the 2D lines"; cat "$tmp/out"; fail=1; }
grep -q '^cb_low = 200$' "$tmp/out" && grep -q '^cb_high = 2000$' "$tmp/out" && grep -q '^8 4 NaN$' "$tmp/out" ||
  { echo "FAIL: the heat map"; cat "$tmp/out"; fail=1; }
# A grid written now ends with its parameters and the build (docs/report.md): the same heat map.
printf 'rows\\cols,4096,8192,device,runs,warmup,mmsim_version,mmsim_commit\n4096,250.5,0,GPU,5,1,0.1.0,abc\n8192,1999,1234,GPU,5,1,0.1.0,abc\n' \
  >"$tmp/enum/enumeration_heatmap_v1bf.csv"
ok "$mmsim" gpu-throughput "$tmp/enum" --format gnuplot
grep -q '^cb_low = 200$' "$tmp/out" && grep -q '^cb_high = 2000$' "$tmp/out" && grep -q '^8 4 NaN$' "$tmp/out" ||
  { echo "FAIL: the heat map with its parameters"; cat "$tmp/out"; fail=1; }
sed -i 's/,ok$/,WRONG/' "$tmp/enum/enumeration.csv"
bad "$mmsim" gpu-throughput "$tmp/enum"

# Bad input: one line and status 2, before anything is written.
bad "$mmsim" fit-bounds table1 "$tmp/nowhere"
bad "$mmsim" fit-bounds sideways "$tmp/fit"
bad "$mmsim" fit-bounds table1 "$tmp/fit" --format xml
bad "$mmsim" fit-bounds table1 "$tmp/fit" extra
bad "$mmsim" gpu-speedups
bad "$mmsim" gpu-throughput "$tmp/nowhere"
mkdir -p "$tmp/bad"
sed 's/^row,kernel,type,permutation,n,ms,/row,kernel,type,permutation,n,time,/' "$tmp/fit/table1-bounds.csv" >"$tmp/bad/table1-bounds.csv"
bad "$mmsim" fit-bounds table1 "$tmp/bad"  # no column ms
grep -q "no column 'ms'" "$tmp/err" || { echo "FAIL: $(cat "$tmp/err")"; fail=1; }
{ head -3 "$tmp/fit/table1-bounds.csv"; echo 'd-designated,d-designated,float,random,65536,0,,,1000'; } >"$tmp/bad/table1-bounds.csv"
bad "$mmsim" fit-bounds table1 "$tmp/bad"  # ms 0
grep -q 'line 4: bound_time_units and ms must be positive' "$tmp/err" || { echo "FAIL: $(cat "$tmp/err")"; fail=1; }
{ head -3 "$tmp/fit/table1-bounds.csv"; echo 'd-designated,"d-designated,float,random,65536,1,,,1000'; } >"$tmp/bad/table1-bounds.csv"
bad "$mmsim" fit-bounds table1 "$tmp/bad"  # a quote never closed
grep -q 'line 4: field 2: its opening double quote is never closed' "$tmp/err" || { echo "FAIL: $(cat "$tmp/err")"; fail=1; }
echo 'kernel,row' >"$tmp/bad/table1-bounds.csv"
bad "$mmsim" fit-bounds table1 "$tmp/bad"
sed 's/,yes,0,280,/,yes,0,many,/' "$tmp/as/as-gpu.csv" >"$tmp/bad/as-gpu.csv"
bad "$mmsim" fit-bounds as "$tmp/bad"
grep -q "gpu_cycles_alone must be a number (got 'many')" "$tmp/err" || { echo "FAIL: $(cat "$tmp/err")"; fail=1; }

# The figures' scripts draw from the commands' variables (where gnuplot is).
if command -v gnuplot >/dev/null; then
  ok env MMSIM="$mmsim" bash "$root/scripts/gpu_table1_figures.sh" "$tmp/fit"
  ok env MMSIM="$mmsim" bash "$root/scripts/gpu_bounds_figures.sh" "$tmp/as"
  ok env MMSIM="$mmsim" bash "$root/scripts/gpu_bmmc_figures.sh" "$tmp/bmmc"
  sed -i 's/,WRONG$/,ok/' "$tmp/enum/enumeration.csv"
  ok env MMSIM="$mmsim" bash "$root/scripts/gpu_enumeration_figures.sh" "$tmp/enum"
  for f in fit/table1_bounds as/as_sort_bound as/as_partition_bound enum/enumeration_throughput enum/enumeration_heatmap; do
    [ -s "$tmp/$f.png" ] && [ -s "$tmp/$f.svg" ] || { echo "FAIL: no figure $f"; fail=1; }
  done
  [ ! -e "$tmp/enum/enumeration_3d.png" ] || { echo "FAIL: a 3D figure without enumeration_3d.csv"; fail=1; }
fi
expect 2 "a folder without the CSV" -- env MMSIM="$mmsim" bash "$root/scripts/gpu_table1_figures.sh" "$tmp/nowhere"

# The committed GPU folders: what the commands make from each folder's CSVs is what it holds. The
# files name their folder as given, so the commands run from a copy of the same relative path.
for device in "$root"/results/gpu-*; do
  name=results/$(basename "$device")
  mkdir -p "$tmp/again/$name"
  cp "$device"/*.csv "$tmp/again/$name/"
  (
    cd "$tmp/again" || exit 1
    "$mmsim" fit-bounds table1 "$name" >/dev/null && "$mmsim" fit-bounds as "$name" >/dev/null &&
      "$mmsim" gpu-speedups "$name" >/dev/null && "$mmsim" gpu-goals "$name" >"$name/goals.md"
  ) || { echo "FAIL: the commands on $name"; fail=1; }
  for f in table1_bounds_fit.csv table1_bounds.dat as_sort_bound.dat as_partition_bound.dat as_permute_bound.dat \
    bmmc_speedup.dat goals.md; do
    # A CSV's last two columns name the build that wrote it (mmsim_version, mmsim_commit): not compared.
    cmp -s <(sed 's/,[^,]*,[^,]*$//' "$device/$f") <(sed 's/,[^,]*,[^,]*$//' "$tmp/again/$name/$f") ||
      { echo "FAIL: $name/$f differs from what the commands make"; fail=1; }
  done
done

# Every committed CSV says what made it (docs/report.md): its header ends with the build's columns,
# and no row names a build from an uncommitted tree. The files of other programs (Nsight Compute,
# nvidia-smi) keep those programs' form.
while IFS= read -r csv; do
  base=$(basename "$csv" .csv)
  case "$base" in ncu-* | nvidia-smi) continue ;; esac
  head -1 "$csv" | grep -q ',mmsim_version,mmsim_commit$' || { echo "FAIL: $csv does not say what made it"; fail=1; }
done < <(find "$root/results" -name '*.csv')
# The GPU tables measured before their writers recorded what made them carry it stamped on
# (scripts/stamp_legacy_results.py): their parameters as that run had them, version 0.1.0 and an
# empty commit on every row, the mark of a row whose build was not recorded. A file of the list
# whose rows name a commit was made again by a build that records it: it leaves the script's list.
stamp=$root/scripts/stamp_legacy_results.py
mapfile -t stamped < <(python3 "$stamp" --list)
[ "${#stamped[@]}" -gt 0 ] || { echo "FAIL: stamp_legacy_results.py --list names no file"; fail=1; }
for f in "${stamped[@]}"; do
  [ -f "$root/$f" ] || { echo "FAIL: $f (stamp_legacy_results.py --list) is not there"; fail=1; continue; }
  head -1 "$root/$f" | grep -q ',mmsim_version,mmsim_commit$' || { echo "FAIL: $f is not stamped"; fail=1; }
  tail -n +2 "$root/$f" | grep -qv ',0\.1\.0,$' &&
    { echo "FAIL: $f has a row not stamped 0.1.0 with an empty commit"; fail=1; }
done
# The script on copies: only a suffix is added (line endings kept, a quoted device with commas),
# and a stamped file, a file it does not know and a short row are refused with one line, status 2.
mkdir -p "$tmp/stamp/gpu-h200" "$tmp/stamp/gpu-h100/traced"
printf 'kind,algorithm,runs\r\nin-place,naive,10\r\nout-of-place,"v1bf, banded",10' >"$tmp/stamp/gpu-h200/enumeration.csv"
ok python3 "$stamp" "$tmp/stamp/gpu-h200/enumeration.csv"
h200='"NVIDIA H200, 132 SMs, 139.8 GiB, compute capability 9.0, driver 13000, runtime 13000",2,0.1.0,'
cmp -s "$tmp/stamp/gpu-h200/enumeration.csv" <(printf '%s\r\n%s\r\n%s' \
  'kind,algorithm,runs,device,warmup,mmsim_version,mmsim_commit' "in-place,naive,10,$h200" \
  "out-of-place,\"v1bf, banded\",10,$h200") || { echo "FAIL: stamping changed more than a suffix"; fail=1; }
bad python3 "$stamp" "$tmp/stamp/gpu-h200/enumeration.csv"
printf 'a,b\n1,2\n' >"$tmp/stamp/gpu-h200/validate.csv"
bad python3 "$stamp" "$tmp/stamp/gpu-h200/validate.csv"
printf 'example,measured_ms\nx,1\ny\n' >"$tmp/stamp/gpu-h100/traced/traced.csv"
bad python3 "$stamp" "$tmp/stamp/gpu-h100/traced/traced.csv"
cmp -s "$tmp/stamp/gpu-h100/traced/traced.csv" <(printf 'example,measured_ms\nx,1\ny\n') ||
  { echo "FAIL: a refused file was written"; fail=1; }
# The H200's recalibration of 2026-11-26 was made by the build of d25bf16 before that commit's test
# file was committed (docs/prediction.md, "A calibration run again"): its cells say -dirty truly.
find "$root/results" -name '*.csv' ! -name 'accesses-atomics.csv' ! -name 'histograms-gpu.csv' \
  ! -path '*/gpu-h200/recalibration-2026-11-26/*' -exec grep -l -- '-dirty$' {} + |
  sed 's/^/FAIL: a row from an uncommitted tree in /' | grep . && fail=1
exit $fail
