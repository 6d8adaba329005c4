#!/usr/bin/env bash
# Figures of the GPU enumeration-scheme transposition (GL Figs. 9-15) from the CSVs that
# `mmsim gpu enumeration` wrote: throughput against the matrix order (TW among the 2D schemes), the
# out-of-place heat maps, and the 3D involutions T_yxz and T_zyx against the order.
#   scripts/gpu_enumeration_figures.sh [DIR]   (default results/gpu-h200; writes PNG and SVG into DIR)
set -euo pipefail
DIR=${1:-results/gpu-h200}
CSV=$DIR/enumeration.csv
[ -f "$CSV" ] || { echo "gpu_enumeration_figures: $CSV not found (run mmsim gpu enumeration --out $DIR first)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gpu_enumeration_figures: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# One data file per algorithm (order, GB/s), measured rows only, so that each line is unbroken.
ALGS="in-place:naive in-place:supergrid in-place:v1 in-place:v1r in-place:v1b in-place:tw out-of-place:nvidia out-of-place:v1bf"
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

# The 3D involutions (Figs. 14-15): one panel per involution, one line per (grid, depth); the
# original full grid dashed, V1B solid, one colour per depth.
CSV3=$DIR/enumeration_3d.csv
PLOT_YXZ="" PLOT_ZYX=""
if [ -f "$CSV3" ]; then
  for inv in yxz zyx; do
    P=""
    for alg in naive v1b; do
      for d in 2 3 4; do
        awk -F, -v k="$inv" -v a="$alg" -v d="$d" 'NR > 1 && $1 == k && $2 == a && $14 == d && $13 == "ok" { print $3, $10 }' "$CSV3" >"$TMP/3d_${inv}_${alg}_$d.dat"
        [ -s "$TMP/3d_${inv}_${alg}_$d.dat" ] || continue
        dash=$([ "$alg" = naive ] && echo 2 || echo 1)
        title=$([ "$alg" = naive ] && echo "original" || echo "V1B")
        P+="${P:+, }'$TMP/3d_${inv}_${alg}_$d.dat' using (\$1/1024):2 with linespoints dt $dash lc $((d - 1)) title '$title, depth $d'"
      done
    done
    if [ "$inv" = yxz ]; then PLOT_YXZ=$P; else PLOT_ZYX=$P; fi
  done
fi

heat() {  # heat ALG TITLE: one panel of the rows x cols map, from the grid CSV as (cols, rows, GB/s)
  local f=$DIR/enumeration_heatmap_$1.csv
  [ -f "$f" ] || return 0
  # A cell of 0 was not measured: NaN leaves it unpainted instead of giving it the scale's bottom colour.
  awk -F, 'NR == 1 { for (i = 2; i <= NF; ++i) c[i] = $i; next }
           { for (i = 2; i <= NF; ++i) print c[i] / 1024, $1 / 1024, ($i + 0 > 0 ? $i : "NaN"); print "" }' "$f" >"$TMP/heat_$1.dat"
  echo "set title '$2'; plot '$TMP/heat_$1.dat' using 1:2:3 with image notitle"
}
HEAT_NVIDIA=$(heat nvidia 'NVIDIA order (OOP)')
HEAT_V1BF=$(heat v1bf 'V1BF order (OOPB)')
# One colour scale for both panels, from the lowest to the highest measured cell of either (rounded
# out to 100 GB/s): with a scale per panel the same colour meant different speeds on the two sides.
CBRANGE=$(cat "$TMP"/heat_*.dat 2>/dev/null | awk 'NF == 3 && $3 != "NaN" { if (n++ == 0 || $3 < lo) lo = $3; if ($3 > hi) hi = $3 }
  END { if (n) printf "%d:%d", int(lo / 100) * 100, (int(hi / 100) + (hi > int(hi / 100) * 100)) * 100 }')
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
  if [ -n "$PLOT_YXZ$PLOT_ZYX" ]; then
    gnuplot <<GP
set terminal $T
set output '$DIR/enumeration_3d.$term'
set multiplot layout 1,2 title '3D involutions in place: throughput against the order (GPU, float; original grid dashed, V1B solid)'
set xlabel 'order n (K = 1024)'
set ylabel 'GB/s (8 bytes per cell / median time)'
set key below font ',9' maxcols 3
set grid
set yrange [0:*]
set title 'T_{yxz}: n x n x depth, xy planes transposed'
${PLOT_YXZ:+plot $PLOT_YXZ}
set title 'T_{zyx}: n x depth x n, xz slices transposed'
${PLOT_ZYX:+plot $PLOT_ZYX}
unset multiplot
GP
  fi
  if [ -n "$CBRANGE" ]; then
    # The colour box is drawn once, beside the right panel; the panels are placed by hand, two
    # squares of the same size (385 x 385 pixels), so that the box takes no room from either.
    gnuplot <<GP
set terminal $T
set output '$DIR/enumeration_heatmap.$term'
set multiplot title "Out-of-place throughput (GB/s) by shape: one colour scale for both panels, ${CBRANGE/:/ to } GB/s\\nwhite = not measured"
set xlabel 'cols (K)'
set ylabel 'rows (K)'
set cbrange [$CBRANGE]
set cblabel 'GB/s'
set palette rgbformulae 33,13,10
set xrange [0:*]
set yrange [0:*]
set bmargin at screen 0.14
set tmargin at screen 0.78
set lmargin at screen 0.06
set rmargin at screen 0.41
unset colorbox
$HEAT_NVIDIA
set lmargin at screen 0.51
set rmargin at screen 0.86
set colorbox
$HEAT_V1BF
unset multiplot
GP
  fi
done
ls "$DIR"/enumeration_*.png "$DIR"/enumeration_*.svg
