#!/usr/bin/env bash
# Figures of the GPU enumeration-scheme transposition (GL Figs. 9-13) from the CSVs that
# `mmsim gpu enumeration` wrote: throughput against the matrix order, and the out-of-place heat maps.
#   scripts/gpu_enumeration_figures.sh [DIR]   (default results/gpu; writes PNG and SVG into DIR)
set -euo pipefail
DIR=${1:-results/gpu}
CSV=$DIR/enumeration.csv
[ -f "$CSV" ] || { echo "gpu_enumeration_figures: $CSV not found (run mmsim gpu enumeration --out $DIR first)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gpu_enumeration_figures: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# One data file per algorithm (order, GB/s), measured rows only, so that each line is unbroken.
ALGS="in-place:naive in-place:supergrid in-place:v1 in-place:v1r in-place:v1b out-of-place:nvidia out-of-place:v1bf"
PLOT=""
for a in $ALGS; do
  kind=${a%%:*} alg=${a#*:}
  awk -F, -v k="$kind" -v a="$alg" 'NR > 1 && $1 == k && $2 == a && $13 == "ok" { print $3, $10 }' "$CSV" >"$TMP/$alg.dat"
  [ -s "$TMP/$alg.dat" ] || continue
  label=$([ "$kind" = in-place ] && echo "IP $alg" || echo "OOP $alg")
  dash=$([ "$kind" = in-place ] && echo 1 || echo 2)
  PLOT+="${PLOT:+, }'$TMP/$alg.dat' using (\$1/1024):2 with linespoints dt $dash title '$label'"
done
[ -n "$PLOT" ] || { echo "gpu_enumeration_figures: no measured rows in $CSV" >&2; exit 2; }

heat() {  # heat ALG TITLE: one panel of the rows x cols map, from the grid CSV as (cols, rows, GB/s)
  local f=$DIR/enumeration_heatmap_$1.csv
  [ -f "$f" ] || return 0
  awk -F, 'NR == 1 { for (i = 2; i <= NF; ++i) c[i] = $i; next }
           { for (i = 2; i <= NF; ++i) print c[i] / 1024, $1 / 1024, $i; print "" }' "$f" >"$TMP/heat_$1.dat"
  echo "set title '$2'; plot '$TMP/heat_$1.dat' using 1:2:3 with image notitle"
}
HEAT="$(heat nvidia 'NVIDIA order (OOP)')
$(heat v1bf 'V1BF order (OOPB)')"

for term in png svg; do
  if [ $term = png ]; then T="pngcairo size 1100,600"; else T="svg size 1100,600"; fi
  gnuplot <<GP
set terminal $T
set output '$DIR/enumeration_throughput.$term'
set title 'Transposition throughput against the matrix order (GPU, float)'
set xlabel 'order (K = 1024)'
set ylabel 'GB/s (8 bytes per cell / median time)'
set key outside right
set grid
set yrange [0:*]
plot $PLOT
GP
  if [ -n "${HEAT//[[:space:]]/}" ]; then
    gnuplot <<GP
set terminal $T
set output '$DIR/enumeration_heatmap.$term'
set multiplot layout 1,2 title 'Out-of-place throughput (GB/s) by shape; 0 = not measured'
set xlabel 'cols (K)'
set ylabel 'rows (K)'
set cbrange [0:*]
set palette rgbformulae 33,13,10
set size ratio -1
$HEAT
unset multiplot
GP
  fi
done
ls "$DIR"/enumeration_*.png "$DIR"/enumeration_*.svg
