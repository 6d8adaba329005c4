output = "as-bounds-theorem4"
array width_w[4] = [16, 64, 256, 1024]
# AS Theorem 4 on the DMM with the finish of Appendix B: each phase's steps over its term, and the
# three ways to finish, against m, from as-bounds-theorem4.dat (one block per w: m, preprocess / m,
# loop / (it (m + log2 w)), pack / m, sort / m, send / m, Lemma 2's finish where it ran, the sort
# path's, a full sort's, total / m). Read before this script:
#   output      the images' path without extension (output.png, output.svg)
#   width_w[i]  the blocks' w

array colour[4] = ['#1f77b4', '#2ca02c', '#ff7f0e', '#d62728']
# The panels: their .dat columns and what each is, one line style per column.
array panel_title[4] = ["O(m) phases (solid: preprocess / m, 4 w coincide; dashed: loop / (it (m + log2 w)))", \
  "finish phases / m (solid: pack, dashed: sort of packed matrix, dotted: sends)", \
  "finish steps: Lemma 2 on packed (solid, where it ran), sort path on packed (dashed), full sort (dotted)", \
  "the whole permutation: steps / m"]
array panel_ylabel[4] = ['steps / term', 'steps / m', 'steps', 'steps / m']
array panel_first[4] = [2, 4, 7, 10]
array panel_series[4] = [2, 3, 3, 1]
array series_name[9] = ['preprocess/m', 'loop/(it (m+log w))', 'pack/m', 'sort/m', 'send/m', 'lemma2', 'packed sort', \
                        'full sort', 'total']
# Curve j of panel p: the block of w number (j - 1) / series + 1, its series (j - 1) % series.
series(p, j) = (j - 1) % panel_series[p]

do for [term in "png svg"] {
  if (term eq 'png') {
    set terminal pngcairo size 1800,1100
  } else {
    set terminal svg size 1800,1100
  }
  set output output.'.'.term
  set multiplot layout 2,2 title 'AS Theorem 4 on the DMM with the finish of Appendix B (log scales)'
  set logscale x 2
  set logscale y 10
  set format y '%g'
  set xlabel 'm (columns)'
  set grid
  set key outside right top font ',8'
  set title font ',10'
  do for [p = 1:4] {
    set title panel_title[p]
    set ylabel panel_ylabel[p]
    plot for [j = 1:|width_w| * panel_series[p]] 'as-bounds-theorem4.dat' index ((j - 1) / panel_series[p]) \
      using 1:panel_first[p] + series(p, j) with linespoints lc rgb colour[(j - 1) / panel_series[p] + 1] \
      dt 1 + series(p, j) pt 4 + 2 * series(p, j) \
      title sprintf('w = %d %s', width_w[(j - 1) / panel_series[p] + 1], series_name[panel_first[p] - 1 + series(p, j)])
  }
  unset multiplot
}
