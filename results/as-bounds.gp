output = "as-bounds"
array ranges[3] = ["(0.29x to 74x)", "(0.0016x to 0.11x)", "(0.0019x to 0.12x)"]
# AS Sect. 2-3 on the DMM: the simulated steps of conflict-free sorting, partition and permutation
# over their bounds against m, beside the baselines that break the CAC, and each baseline's time units
# over its conflict-free counterpart's, from as-bounds.dat (one block per (algorithm, w), index
# 4 (a - 1) + i - 1: m, steps / (m log2 mw), steps / m, time units, the baseline's ratio).
# One colour per algorithm in every panel (conflict-free solid, its baseline dashed), one open marker
# per w, so that a curve is read the same way wherever it appears; each panel's key has one line
# per algorithm and one marker per w (drawn once, in black), so that eight curves need six entries.
# Read before this script:
#   output     the images' path without extension (output.png, output.svg)
#   ranges[b]  the measured range of baseline b's time ratio, said in the last panel's key

array name[6] = ['as-sort', 'as-partition', 'as-permute', 'as-sort-bitonic', 'as-partition-direct', \
                 'as-permute-direct']
array colour[6] = ['#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#d62728', '#17becf']
array baseline[6] = [0, 0, 0, 1, 1, 1]
array width_w[4] = [8, 16, 32, 64]
array marker[4] = [6, 4, 8, 12]
# The panels: their algorithms (indices into name), titles, y labels and the .dat column they draw.
# Direct sends take exactly two steps per column at every w: their four curves are one line.
array panel_algos[4] = ['1 4', '2 5', '3 6', '4 5 6']
array panel_title[4] = ["as-sort and Batcher's bitonic network on the flat array", \
  "as-partition and direct sends\n{/*0.85 direct sends: steps / m = 2 at every w (the four w coincide)}", \
  "as-permute and direct sends\n{/*0.85 direct sends: steps / m = 2 at every w (the four w coincide)}", \
  "time units (conflicts counted) of each baseline over its conflict-free counterpart\n{/*0.85 above 1 the baseline is slower; in the key: the measured range}"]
array panel_ylabel[4] = ['steps / (m log2 mw)', 'steps / m', 'steps / m', 'baseline time units / conflict-free time units']
array panel_y[4] = [2, 3, 3, 5]
algo(p, j) = int(word(panel_algos[p], j))
curves(p) = 4 * words(panel_algos[p])
# Curve j of panel p: algorithm (j - 1) / 4 of the panel, at w number (j - 1) % 4 + 1.
curve_algo(p, j) = algo(p, (j - 1) / 4 + 1)
# Steps hide a baseline's conflicts; time units count them. The last panel compares each baseline
# with its conflict-free counterpart in time units, and its key states the measured ranges.
note(p, k) = p == 4 ? ' '.ranges[k] : ''

do for [term in "png svg"] {
  if (term eq 'png') {
    set terminal pngcairo size 1600,1000
  } else {
    set terminal svg size 1600,1000
  }
  set output output.'.'.term
  set multiplot layout 2,2 title 'AS on the DMM: simulated steps over the bounds, and the baselines in time units (log scales; solid: conflict-free, dashed: baseline that breaks the CAC)'
  set logscale x 2
  set logscale y 10
  set format y '%g'
  set xlabel 'm (columns)'
  set grid
  set key outside right top font ',9'
  do for [p = 1:4] {
    if (p == 4) {
      set logscale y 10
      set format y '%g'
    }
    set title panel_title[p]
    set ylabel panel_ylabel[p]
    # (gnuplot makes a plot of an iteration over an empty range: the last panel's extra line is a
    # plot command of its own.)
    if (p < 4) {
      plot for [j = 1:curves(p)] 'as-bounds.dat' index (4 * (curve_algo(p, j) - 1) + (j - 1) % 4) using 1:panel_y[p] \
             with linespoints lc rgb colour[curve_algo(p, j)] lw 2 dt 1 + baseline[curve_algo(p, j)] \
             pt marker[(j - 1) % 4 + 1] notitle, \
           for [k = 1:words(panel_algos[p])] NaN with lines lc rgb colour[algo(p, k)] lw 2 \
             dt 1 + baseline[algo(p, k)] title (name[algo(p, k)].note(p, k)), \
           for [i = 1:4] NaN with points lc rgb 'black' pt marker[i] title sprintf('w = %d', width_w[i])
    } else {
      plot for [j = 1:curves(p)] 'as-bounds.dat' index (4 * (curve_algo(p, j) - 1) + (j - 1) % 4) using 1:panel_y[p] \
             with linespoints lc rgb colour[curve_algo(p, j)] lw 2 dt 1 + baseline[curve_algo(p, j)] \
             pt marker[(j - 1) % 4 + 1] notitle, \
           for [k = 1:words(panel_algos[p])] NaN with lines lc rgb colour[algo(p, k)] lw 2 \
             dt 1 + baseline[algo(p, k)] title (name[algo(p, k)].note(p, k)), \
           for [i = 1:4] NaN with points lc rgb 'black' pt marker[i] title sprintf('w = %d', width_w[i]), \
           1 with lines lc rgb 'gray40' dt 3 lw 1 title 'equal time'
    }
  }
  unset multiplot
}
