#!/usr/bin/env bash
# AS bounds on the GPU: one instance's time (GPU cycles, one warp alone on its SM) against the
# bound's expression, over the shapes `mmsim gpu sorting` ran, with the constant c of
# cycles = c * expression fitted here by least squares through the origin, and the simulated steps
# against the same expression beside it. One figure per result:
#   as_sort_bound       as-sort,      AS Theorems 1-2: m log2(m w)
#   as_partition_bound  as-partition, AS Corollary 1, Theorem 1 (O(m), w <= m) and Lemma 2
#                       (O(m log_m^3 w), w > m): m max(1, log_m w)^3
#   as_permute_bound    as-permute,   AS Theorem 4: O(m log log log_m w) expected; the triple
#                       logarithm is below 1 on every shape of the grid (w = 32, m >= 4), so the
#                       expression is m max(1, log2 log2 log_m w) = m there
# (AS Theorem 3 is the hash family that Theorem 4 draws from: it bounds no running time.)
#   scripts/gpu_bounds_figures.sh [DIR]   (default results/gpu-h200; reads DIR/as-gpu.csv and writes
#   DIR/as_*_bound.{dat,png,svg}; an algorithm with no checked rows is skipped with a note)
set -euo pipefail
DIR=${1:-results/gpu-h200}
CSV=$DIR/as-gpu.csv
[ -f "$CSV" ] || { echo "gpu_bounds_figures: $CSV not found (run mmsim gpu sorting --out $DIR first)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gpu_bounds_figures: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 2; }
DEVICE=$(sed -n 's/^| name | \(.*\) |$/(\1)/p' "$DIR/device.md" 2>/dev/null | head -1)

# figure NAME ALGORITHM BOUND XLABEL TITLE: BOUND is the expression's key for the awk below.
figure() {
  local name=$1 algo=$2 bound=$3 xlabel=$4 title=$5
  local dat=$DIR/$name.dat
  # Columns by name, so that a reordered CSV still reads right.
  if ! awk -F, -v csv="$CSV" -v algo="$algo" -v bound="$bound" -v xlabel="$xlabel" '
    function lg(x, b) { return log(x) / log(b) }
    function expr(m, w,   l) {
      if (bound == "sort") return m * lg(m * w, 2)
      l = m > 1 ? lg(w, m) : w
      if (bound == "partition") return m * (l > 1 ? l * l * l : 1)
      # permute: m max(1, log2 log2 log_m w), the inner logarithms taken only where they exceed 1
      if (l <= 2) return m
      l = lg(lg(l, 2), 2)
      return m * (l > 1 ? l : 1)
    }
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["algorithm"] != algo || $col["correct"] != "yes" { next }
    {
      w = $col["w"]; m = $col["m"]; x = expr(m, w)
      y = $col["gpu_cycles_alone"]; s = $col["sim_steps"]
      n++; X[n] = x; Y[n] = y; S[n] = s; M[n] = m; W[n] = w
      sxy += x * y; sxx += x * x; sxs += x * s
    }
    END {
      if (n == 0) exit 3
      c = sxy / sxx; cs = sxs / sxx
      printf "# %s, one instance alone, from %s\n", algo, csv
      printf "# fitted: cycles = %.4g * %s; simulated steps = %.4g * %s\n", c, xlabel, cs, xlabel
      print "# w m bound gpu_cycles fitted_cycles sim_steps cycles/bound"
      for (i = 1; i <= n; ++i)
        printf "%d %d %.6g %.6g %.6g %d %.4g\n", W[i], M[i], X[i], Y[i], c * X[i], S[i], Y[i] / X[i]
    }' "$CSV" >"$dat"; then
    rm -f "$dat"
    echo "gpu_bounds_figures: no checked $algo rows in $CSV; $name skipped" >&2
    return 0
  fi
  local c cs
  c=$(sed -n 's/^# fitted: cycles = \([^ ]*\) .*/\1/p' "$dat")
  cs=$(sed -n 's/.*simulated steps = \([^ ]*\) .*/\1/p' "$dat")
  for term in png svg; do
    if [ $term = png ]; then T="pngcairo size 900,560 font ',10'"; else T="svg size 900,560 font 'sans,10'"; fi
    gnuplot <<GP
set terminal $T
set output '$DIR/$name.$term'
set title "$title ${DEVICE}\\n{/*0.9 one warp alone on its SM, cycles by clock64(), every output checked; line: least squares through the origin}"
set xlabel '$xlabel'
set ylabel 'GPU cycles per instance'
set y2label 'simulated steps'
set ytics nomirror
set y2tics
set grid
set key top left Left reverse
set logscale xy
set logscale y2
plot '$dat' using 3:4 with points pt 7 ps 1.2 lc rgb '#e41a1c' title 'GPU cycles', \
     '' using 3:5 with lines lw 2 lc rgb '#e41a1c' title sprintf('fitted: %s x $xlabel', '$c'), \
     '' using 3:6 axes x1y2 with points pt 6 ps 1.2 lc rgb '#377eb8' title sprintf('simulated steps (%s x $xlabel)', '$cs')
GP
  done
  ls "$DIR/$name".*
}

figure as_sort_bound as-sort sort 'm log_2(m w)' \
  "AS Theorems 1-2 on the GPU: the conflict-free sort of a w x m matrix (w = 32) against its bound"
figure as_partition_bound as-partition partition 'm max(1, log_m w)^3' \
  "AS Corollary 1, Theorem 1, Lemma 2 on the GPU: the w-way partition (w = 32) against its bound"
figure as_permute_bound as-permute permute 'm max(1, log_2 log_2 log_m w)' \
  "AS Theorem 4 on the GPU: the randomized permutation (w = 32) against its bound"
