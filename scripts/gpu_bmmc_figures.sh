#!/usr/bin/env bash
# BDS Fig. 11 on the GPU: speed-up of the optimised BPC/BMMC kernels over the naive one by array size
# (2^20 .. 2^30), drawn from the CSV that `mmsim gpu bmmc` wrote. The speed-up is computed here from
# the measured median times (naive / kernel, same workload and size), not read from the CSV's own
# speed-up column; the script stops if the two disagree, so a change to either shows.
#   scripts/gpu_bmmc_figures.sh [DIR]   (default results/gpu-h200; writes bmmc_speedup.{dat,png,svg} into DIR)
set -euo pipefail
DIR=${1:-results/gpu-h200}
CSV=$DIR/bmmc.csv
[ -f "$CSV" ] || { echo "gpu_bmmc_figures: $CSV not found (run mmsim gpu bmmc --out $DIR first)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gpu_bmmc_figures: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 2; }
DAT=$DIR/bmmc_speedup.dat

# The first field (the device) is quoted and holds commas: it is read once for the title and cut off.
DEVICE=$(awk -F'"' 'NR == 2 { print $2; exit }' "$CSV")
sed -n '2,$ s/^"[^"]*",//p' "$CSV" | awk -F, -v csv="$CSV" '
  # Fields after the device: 1 log2_n, 3 permutation, 4 kernel, 8 median_ms, 15 speedup_over_naive, 18 correct.
  $18 != "yes" { next }
  { ms[$3, $1, $4] = $8; said[$3, $1, $4] = $15; sizes[$1] = 1; perms[$3] = 1 }
  END {
    print "# speed-up over the naive kernel (median times, same workload and size), from " csv
    print "# workload log2_n tile tile-banks tile-banks-iters"
    np = split("random BPC|random BMMC|bit-reversal", order, "|")
    for (p = 1; p <= np; ++p) {
      if (!(order[p] in perms)) continue
      for (s = 20; s <= 40; ++s) {
        if (!(s in sizes) || !((order[p], s, "naive") in ms)) continue
        line = "\"" order[p] "\" " s
        for (k = 1; k <= 3; ++k) {
          kern = k == 1 ? "tile" : k == 2 ? "tile-banks" : "tile-banks-iters"
          if (!((order[p], s, kern) in ms)) { line = line " NaN"; continue }
          x = ms[order[p], s, "naive"] / ms[order[p], s, kern]
          # The CSV rounds to six significant digits: a difference beyond 1e-4 relative is a real disagreement.
          d = x - said[order[p], s, kern]; if (d < 0) d = -d
          if (d > 1e-4 * x) { print "gpu_bmmc_figures: speed-up of " kern " on " order[p] " at 2^" s " is " x " from the times but " said[order[p], s, kern] " in the CSV" > "/dev/stderr"; exit 1 }
          line = line " " sprintf("%.4f", x)
        }
        print line
      }
      print ""; print ""
    }
  }' >"$DAT"
grep -q '^"' "$DAT" || { echo "gpu_bmmc_figures: no checked rows in $CSV" >&2; exit 2; }

for term in png svg; do
  if [ $term = png ]; then T="pngcairo size 1500,520 font ',10'"; else T="svg size 1500,520 font 'sans,10'"; fi
  gnuplot <<GP
set terminal $T
set output '$DIR/bmmc_speedup.$term'
set multiplot layout 1,3 title "BDS Fig. 11 on the GPU: speed-up over the naive kernel by array size (32-bit elements; $DEVICE)\\n{/*0.9 median of the timed runs of each kernel; every output checked against the CPU; a random BPC/BMMC is drawn afresh at each size; dashed: speed-up 1}"
set xlabel 'log_2 n (array size 2^{20} .. 2^{30})'
set ylabel 'speed-up over naive (naive time / kernel time)'
set grid
set key top left Left reverse
set xrange [19.5:30.5]
set xtics 20,1,30
set yrange [0:*]
set style line 1 lc rgb '#377eb8' lw 1.5 pt 6 ps 1.1
set style line 2 lc rgb '#4daf4a' lw 1.5 pt 8 ps 1.1
set style line 3 lc rgb '#e41a1c' lw 3 pt 7 ps 1.2
do for [b = 0:2] {
  set title (b == 0 ? 'random BPC' : b == 1 ? 'random BMMC (two tiled passes)' : 'bit-reversal')
  plot 1 with lines dt 2 lc rgb '#777777' notitle, \
       '$DAT' index b using 2:3 with linespoints ls 1 title 'tile', \
       '' index b using 2:4 with linespoints ls 2 title 'tile-banks', \
       '' index b using 2:5 with linespoints ls 3 title 'tile-banks-iters (all optimisations)'
}
unset multiplot
GP
done
ls "$DIR"/bmmc_speedup.*
