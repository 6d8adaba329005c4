term = "png"
output = "kasagi-fig7"
csv = "kasagi-fig7.csv"
rows = 4
bend = 0.200000
matchings = "yes"
# KNI Fig. 7 from a run: the bipartite multigraph of Fig. 6's permutation, one edge per element from
# its source row to its destination row in the colour the run gave it, from kasagi-fig7.csv
# (x,source_row,destination_row,destination_col,colour,bend_y; each edge bends at x = bend).
# Read before this script:
#   term        png or svg;  output: the image's path without extension
#   csv         the figure's CSV;  rows: the rows on each side;  bend: where the edges bend
#   matchings   "yes" when each colour class was checked to be a perfect matching, else "NO"

if (term eq 'png') {
  set terminal pngcairo size 800,620 font ',10'
} else {
  set terminal svg size 800,620 font 'sans,10'
}
set output output.'.'.term
# Colour i of a figure is linetype 21 + i; linetype 20 is a cell the figure does not follow.
set linetype 20 lc rgb '#eeeeee'
set linetype 21 lc rgb '#e41a1c'
set linetype 22 lc rgb '#377eb8'
set linetype 23 lc rgb '#4daf4a'
set linetype 24 lc rgb '#984ea3'
set linetype 25 lc rgb '#ff7f00'
set linetype 26 lc rgb '#a6cee3'
set linetype 27 lc rgb '#f781bf'
set linetype 28 lc rgb '#b2df8a'
set datafile separator ','
set title "KNI Fig. 7 from a run: the bipartite multigraph of Fig. 6's permutation\n{/*0.9 edge: one element, from its source row to its destination row, labelled (row column) of its destination,\nin the colour the run gave it; each colour a perfect matching: ".matchings."}"
unset key
unset grid
unset border
unset xtics
unset ytics
set xrange [-0.35:1.35]
set yrange [rows-0.4:-0.6]
do for [r = 0:rows - 1] {
  set label 2 * r + 1 sprintf('row %d', r) at -0.06, r right font ',11'
  set label 2 * r + 2 sprintf('row %d', r) at 1.06, r left font ',11'
}
set label 'source rows' at 0, -0.45 center font ',11'
set label 'destination rows' at 1, -0.45 center font ',11'
set style textbox opaque noborder
plot csv using (0):2:(bend):($6 - $2):(21 + $5) with vectors nohead lw 2.5 lc variable notitle, \
     '' using (bend):6:(1 - bend):($3 - $6):(21 + $5) with vectors nohead lw 2.5 lc variable notitle, \
     '' using (bend):6:(sprintf('(%d %d)', $3, $4)):(21 + $5) with labels boxed font ',8' tc variable notitle, \
     '' using (0):2 with points pt 7 ps 2.2 lc rgb '#333333' notitle, \
     '' using (1):3 with points pt 7 ps 2.2 lc rgb '#333333' notitle
