# KNI Table 1 on the GPU: the measured ms of each row's runs against the row's bound in time units,
# one panel per kernel, with the line ms = c x bound that `mmsim fit-bounds table1` fitted through
# the origin per element type. Read before this script (`mmsim fit-bounds table1 DIR --format gnuplot`):
#   output          the figure's path without its extension
#   points          the fit's points (table1_bounds.dat: kernel type permutation n bound ms fitted residual)
#   device          " (NAME)" or "";  machine: "w = .., l = .., L = .., k = .."
#   kernel[i]       the panels' kernels, in Table 1's order
#   perms[i]        the permutations that kernel ran, as words
#   c_float[i], c_double[i]          the fitted ms per time unit, NaN where that type did not run
#   label_float[i], label_double[i]  the fit's numbers for the panel's corner, "" where it did not
# and term ("png" or "svg"), given on gnuplot's command line.

panel_title(k) = k eq 'd-designated' ? 'D-designated: D_w(P) + 2n/w + 3L - 3' : \
  k eq 's-designated' ? 'S-designated: D_w(P^{-1}) + 2n/w + 3L - 3' : \
  k eq 'in-place' ? 'in-place (transpose, shuffle, bit-reversal): 2n/w + 2n/(kw) + 2L - 2' : \
  k[1:10] eq 'scheduled-' ? k.' (Theorem 9): 16n/w + 16n/(kw) + 16L - 16' : k
colour(p) = p eq 'identical' ? '#4daf4a' : p eq 'shuffle' ? '#377eb8' : p eq 'bit-reversal' ? '#984ea3' : \
  p eq 'transpose' ? '#ff7f00' : '#e41a1c'
# Points 2j - 1 and 2j of a panel are permutation j's float (filled) and double (open) runs.
perm(i, j) = word(perms[i], (j + 1) / 2)
type(j) = j % 2 ? 'float' : 'double'
fitted(i) = (label_float[i] ne '' ? 'float ' : '').(label_double[i] ne '' ? 'double' : '')

if (term eq 'png') {
  set terminal pngcairo size 1500,950 font ',9'
} else {
  set terminal svg size 1500,950 font 'sans,9'
}
set output output.'.'.term
set multiplot layout 2,3 title "KNI Table 1 on the GPU".device.": measured ms against each row's bound in time units (".machine.")\n{/*0.9 filled: float, open: double; lines: ms = c x bound, least squares through the origin, one c per kernel and type; R^2 and the largest |ms / fit - 1| beside each c}"
set logscale xy
set grid
set format x '10^{%T}'
set format y '10^{%T}'
set xlabel 'bound (time units)'
set ylabel 'GPU ms'
set key top left Left reverse font ',8' samplen 2
do for [i = 1:|kernel|] {
  set title panel_title(kernel[i])
  unset label
  y = 0.10
  if (label_float[i] ne '') {
    set label 1 label_float[i] at graph 0.98, graph y right font ',8'
    y = 0.04
  }
  if (label_double[i] ne '') {
    set label (label_float[i] ne '' ? 2 : 1) label_double[i] at graph 0.98, graph y right font ',8'
  }
  # The fits after the points, so that the functions are drawn over the points' range.
  plot for [j = 1:2 * words(perms[i])] points \
         using (strcol(1) eq kernel[i] && strcol(2) eq type(j) && strcol(3) eq perm(i, j) ? $5 : NaN):6 \
         with points pt (j % 2 ? 7 : 6) ps 1 lc rgb colour(perm(i, j)) title (j % 2 ? perm(i, j) : ''), \
       for [t in fitted(i)] \
         (t eq 'float' ? c_float[i] : c_double[i]) * x with lines lw 1.5 dt 2 - (t eq 'float') \
         lc rgb '#333333' title (t.' fit')
}
unset multiplot
