#!/usr/bin/env bash
# KNI Table 1 on the GPU: each row's measured times (kasagi-t2.csv) against the row's bound in time
# units on the GPU profile's machine (mmsim table1-bounds), with the constant c of
# ms = c x bound fitted by least squares through the origin, per kernel and element type. Prints
# beside each fit its R^2 (1 - residual / total sum of squares about the mean) and its largest
# relative residual |ms / (c x bound) - 1|, over every size and over n >= 2^22 (below that the
# kernels take about one launch's time, a term no bound of Table 1 has).
#   scripts/gpu_table1_figures.sh [DIR]   (default results/gpu-h200; reads DIR/table1-bounds.csv and writes
#   DIR/table1_bounds_fit.csv, DIR/table1_bounds.dat and DIR/table1_bounds.{png,svg})
# MMSIM_NO_PLOT=1 writes the fit and the points only (no gnuplot needed).
set -euo pipefail
DIR=${1:-results/gpu-h200}
CSV=$DIR/table1-bounds.csv
[ -f "$CSV" ] || {
  echo "gpu_table1_figures: $CSV not found (run mmsim table1-bounds --profile DIR/profile-*.json --measured DIR --out DIR first)" >&2
  exit 2
}
PLOT=1
[ "${MMSIM_NO_PLOT:-0}" = 1 ] && PLOT=0
if [ $PLOT = 1 ] && ! command -v gnuplot >/dev/null; then
  echo "gpu_table1_figures: gnuplot not found (Debian package gnuplot-nox)" >&2
  exit 2
fi
FIT=$DIR/table1_bounds_fit.csv
DAT=$DIR/table1_bounds.dat

# Columns by name, so that a reordered CSV still reads right. One fit per (kernel, type).
awk -F, -v csv="$CSV" -v fit="$FIT" '
  NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  {
    g = $col["kernel"] " " $col["type"]
    if (!(g in count)) { order[++groups] = g; row[g] = $col["row"] }
    x = $col["bound_time_units"] + 0; y = $col["ms"] + 0
    if (x <= 0 || y <= 0) { printf "gpu_table1_figures: %s, line %d: bound and ms must be positive\n", csv, NR > "/dev/stderr"; bad = 1; exit 2 }
    k = ++count[g]; X[g, k] = x; Y[g, k] = y; P[g, k] = $col["permutation"]; N[g, k] = $col["n"]
    sxy[g] += x * y; sxx[g] += x * x; sy[g] += y
  }
  END {
    if (bad) exit 2
    if (groups == 0) { print "gpu_table1_figures: no runs in " csv > "/dev/stderr"; exit 2 }
    print "kernel,row,type,points,min_n,max_n,ms_per_time_unit,r2,max_rel_residual,worst_permutation,worst_n,max_rel_residual_n_ge_2^22" > fit
    print "# kernel type permutation n bound_time_units ms fitted_ms rel_residual"
    for (j = 1; j <= groups; ++j) {
      g = order[j]; split(g, kt, " "); c = sxy[g] / sxx[g]; mean = sy[g] / count[g]
      res = 0; tot = 0; worst = -1; large = -1; lo = hi = N[g, 1]
      for (k = 1; k <= count[g]; ++k) {
        f = c * X[g, k]; e = Y[g, k] - f; res += e * e; tot += (Y[g, k] - mean) ^ 2
        r = Y[g, k] / f - 1; a = r < 0 ? -r : r
        if (a > worst) { worst = a; wp = P[g, k]; wn = N[g, k] }
        if (N[g, k] >= 4194304 && a > large) large = a
        if (N[g, k] + 0 < lo + 0) lo = N[g, k]
        if (N[g, k] + 0 > hi + 0) hi = N[g, k]
        printf "%s %s %s %s %.10g %.10g %.10g %.6g\n", kt[1], kt[2], P[g, k], N[g, k], X[g, k], Y[g, k], f, r
      }
      # One point, or equal times, leave no spread to explain: R^2 is then undefined (printed nan).
      r2 = tot > 0 ? sprintf("%.6g", 1 - res / tot) : "nan"
      printf "%s,%s,%s,%d,%s,%s,%.6g,%s,%.6g,%s,%s,%s\n", kt[1], row[g], kt[2], count[g], lo, hi, c, r2, worst, wp, wn, large < 0 ? "nan" : sprintf("%.6g", large) > fit
    }
  }' "$CSV" >"$DAT"
[ $PLOT = 1 ] || { ls "$FIT" "$DAT"; exit 0; }

DEVICE=$(sed -n 's/^| name | \(.*\) |$/ (\1)/p' "$DIR/device.md" 2>/dev/null | head -1 || true)
MACHINE=$(sed -n 's/^bound: .* on the HMM with \(w = [^(]*\) (.*/\1/p' "$DIR/table1-bounds.md" 2>/dev/null | head -1 || true)
MACHINE=${MACHINE:-on the GPU profile\'s machine}
# The panels: one per kernel, in Table 1's order, each with its row's expression.
panel_title() {
  case $1 in
    d-designated) echo 'D-designated: D_w(P) + 2n/w + 3L - 3' ;;
    s-designated) echo 'S-designated: D_w(P^{-1}) + 2n/w + 3L - 3' ;;
    in-place) echo 'in-place (transpose, shuffle, bit-reversal): 2n/w + 2n/(kw) + 2L - 2' ;;
    scheduled-*) echo "$1 (Theorem 9): 16n/w + 16n/(kw) + 16L - 16" ;;
    *) echo "$1" ;;
  esac
}
KERNELS=()
for k in d-designated s-designated in-place scheduled-paper scheduled-pipelined scheduled-fused; do
  grep -q "^$k," "$FIT" && KERNELS+=("$k")
done
PERMS=(identical shuffle bit-reversal transpose random)
COLOURS=('#4daf4a' '#377eb8' '#984ea3' '#ff7f00' '#e41a1c')
fitted() {  # fitted KERNEL TYPE COLUMN -> the fit's field, or nothing
  awk -F, -v k="$1" -v t="$2" -v c="$3" '$1 == k && $3 == t { print $c }' "$FIT"
}
short() {  # short NUMBER -> three significant digits, for a label that fits its panel
  [ -n "$1" ] && printf '%.3g' "$1"
}
GP=$(mktemp)
trap 'rm -f "$GP"' EXIT
for term in png svg; do
  if [ $term = png ]; then T="pngcairo size 1500,950 font ',9'"; else T="svg size 1500,950 font 'sans,9'"; fi
  {
    echo "set terminal $T"
    echo "set output '$DIR/table1_bounds.$term'"
    echo "set multiplot layout 2,3 title \"KNI Table 1 on the GPU$DEVICE: measured ms against each row's bound in time units ($MACHINE)\\n{/*0.9 filled: float, open: double; lines: ms = c x bound, least squares through the origin, one c per kernel and type; R^2 and the largest |ms / fit - 1| beside each c}\""
    echo "set logscale xy"
    echo "set grid"
    echo "set format x '10^{%T}'"
    echo "set format y '10^{%T}'"
    echo "set xlabel 'bound (time units)'"
    echo "set ylabel 'GPU ms'"
    echo "set key top left Left reverse font ',8' samplen 2"
    for k in "${KERNELS[@]}"; do
      echo "set title \"$(panel_title "$k")\""
      echo "unset label"
      plots=()
      for i in "${!PERMS[@]}"; do
        p=${PERMS[$i]}
        grep -q "^$k [a-z]* $p " "$DAT" || continue
        plots+=("'$DAT' using (strcol(1) eq '$k' && strcol(2) eq 'float' && strcol(3) eq '$p' ? \$5 : NaN):6 with points pt 7 ps 1 lc rgb '${COLOURS[$i]}' title '$p'")
        plots+=("'$DAT' using (strcol(1) eq '$k' && strcol(2) eq 'double' && strcol(3) eq '$p' ? \$5 : NaN):6 with points pt 6 ps 1 lc rgb '${COLOURS[$i]}' notitle")
      done
      # The fits after the points, so that the functions are drawn over the points' range.
      y=0.10
      for t in float double; do
        c=$(fitted "$k" "$t" 7)
        [ -n "$c" ] || continue
        dash=$([ $t = float ] && echo 1 || echo 2)
        plots+=("$c * x with lines lw 1.5 dt $dash lc rgb '#333333' title '$t fit'")
        echo "set label \"$t: c = $(short "$c") ms/unit, R^2 = $(printf %.4f "$(fitted "$k" "$t" 8)"), max |res| $(short "$(fitted "$k" "$t" 9)"), from 2^{22} $(short "$(fitted "$k" "$t" 12)")\" at graph 0.98, graph $y right font ',8'"
        y=0.04
      done
      (IFS=,; echo "plot ${plots[*]}")
    done
    echo "unset multiplot"
  } >"$GP"
  gnuplot "$GP"
done
ls "$FIT" "$DAT" "$DIR"/table1_bounds.png "$DIR"/table1_bounds.svg
