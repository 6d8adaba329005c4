#!/usr/bin/env bash
# AS Theorems 1-2 on the GPU: one instance's time of the conflict-free sort (GPU cycles, one warp
# alone on its SM) against the bound's expression m log2(m w), over the shapes `mmsim gpu sorting`
# ran, with the constant c of cycles = c m log2(m w) fitted here by least squares through the
# origin, and the simulated steps against the same expression beside it.
#   scripts/gpu_bounds_figures.sh [DIR]   (default results/gpu; reads DIR/as-gpu.csv and writes
#   DIR/as_sort_bound.{dat,png,svg})
set -euo pipefail
DIR=${1:-results/gpu}
CSV=$DIR/as-gpu.csv
[ -f "$CSV" ] || { echo "gpu_bounds_figures: $CSV not found (run mmsim gpu sorting --out $DIR first)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gpu_bounds_figures: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 2; }
DAT=$DIR/as_sort_bound.dat

# Columns by name, so that a reordered CSV still reads right.
awk -F, -v csv="$CSV" '
  NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  $col["algorithm"] != "as-sort" || $col["correct"] != "yes" { next }
  {
    w = $col["w"]; m = $col["m"]; x = m * log(m * w) / log(2)
    y = $col["gpu_cycles_alone"]; s = $col["sim_steps"]
    n++; X[n] = x; Y[n] = y; S[n] = s; M[n] = m; W[n] = w
    sxy += x * y; sxx += x * x; sxs += x * s
  }
  END {
    if (n == 0) { print "gpu_bounds_figures: no checked as-sort rows in " csv > "/dev/stderr"; exit 2 }
    c = sxy / sxx; cs = sxs / sxx
    printf "# as-sort, one instance alone, from %s\n", csv
    printf "# fitted: cycles = %.4g * m log2(m w); simulated steps = %.4g * m log2(m w)\n", c, cs
    print "# w m m_log2_mw gpu_cycles fitted_cycles sim_steps cycles/bound"
    for (i = 1; i <= n; ++i)
      printf "%d %d %.6g %.6g %.6g %d %.4g\n", W[i], M[i], X[i], Y[i], c * X[i], S[i], Y[i] / X[i]
  }' "$CSV" >"$DAT"
C=$(sed -n 's/^# fitted: cycles = \([^ ]*\) .*/\1/p' "$DAT")
CS=$(sed -n 's/.*simulated steps = \([^ ]*\) .*/\1/p' "$DAT")
DEVICE=$(sed -n 's/^| name | \(.*\) |$/(\1)/p' "$DIR/device.md" 2>/dev/null | head -1)
for term in png svg; do
  if [ $term = png ]; then T="pngcairo size 900,560 font ',10'"; else T="svg size 900,560 font 'sans,10'"; fi
  gnuplot <<GP
set terminal $T
set output '$DIR/as_sort_bound.$term'
set title "AS Theorems 1-2 on the GPU: the conflict-free sort of a w x m matrix (w = 32) against its bound ${DEVICE}\\n{/*0.9 one warp alone on its SM, cycles by clock64(), every output checked; line: least squares through the origin}"
set xlabel 'm log_2(m w)'
set ylabel 'GPU cycles per instance'
set y2label 'simulated steps'
set ytics nomirror
set y2tics
set grid
set key top left Left reverse
set logscale xy
set logscale y2
plot '$DAT' using 3:4 with points pt 7 ps 1.2 lc rgb '#e41a1c' title 'GPU cycles', \
     '' using 3:5 with lines lw 2 lc rgb '#e41a1c' title sprintf('fitted: %s x m log_2(m w)', '$C'), \
     '' using 3:6 axes x1y2 with points pt 6 ps 1.2 lc rgb '#377eb8' title sprintf('simulated steps (%s x m log_2(m w))', '$CS')
GP
done
ls "$DIR"/as_sort_bound.*
