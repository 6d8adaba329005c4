term = "png"
output = "kasagi-fig6"
width = 1500
height = 480
csv = "kasagi-fig6.csv"
layout_rows = 1
layout_cols = 4
title = "KNI Fig. 6 from a run: the scheduled permutation of a random P (seed 1), sqrt(n) = 4, w = 4; 192 time units\n{/*0.9 each cell: (row, column) of its destination P; colour: the column it takes in step 1 (its edge colour); b[i][j] holds (i j) everywhere: yes}"
array key[4] = ["fig6", "fig6", "fig6", "fig6"]
array panel[4] = ["a", "step1", "step2", "b"]
array caption[4] = ["a (input)", "after step 1 (row-wise):\ncolour c to column c", "after step 2 (column-wise):\nto the destination row", "b, after step 3 (row-wise):\nto the destination column"]
array rows[4] = [4, 4, 4, 4]
array cols[4] = [4, 4, 4, 4]
array font[4] = [12, 12, 12, 12]
# KNI Figs. 4 and 6 from a run: panels of cells, each painted with the colour its value carries and
# labelled, from the figure's CSV (figure,panel,row,col,label,colour; colour -1: a cell the figure
# does not follow, grey and unlabelled). Read before this script:
#   term             png or svg;  output: the image's path without extension;  width, height: its size
#   csv              the figure's CSV;  layout_rows, layout_cols, title: the panels' grid and its title
#   key[k], panel[k] the CSV's figure and panel of panel k;  rows[k], cols[k]: its cells
#   caption[k]       its title;  font[k]: the labels' point size

if (term eq 'png') {
  set terminal pngcairo size width,height font ',10'
} else {
  set terminal svg size width,height font 'sans,10'
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
set multiplot layout layout_rows,layout_cols title title
pick(k) = strcol(1) eq key[k] && strcol(2) eq panel[k]
do for [k = 1:|panel|] {
  set title caption[k]
  unset key
  unset grid
  set size ratio -1
  set xrange [-0.5:cols[k]-0.5]
  set yrange [rows[k]-0.5:-0.5]
  set xtics out nomirror 1 + (cols[k] > 8)
  set ytics out nomirror 1 + (rows[k] > 8)
  set xlabel 'column'
  set ylabel 'row'
  plot csv using (pick(k) ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) \
         with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable notitle, \
       '' using (pick(k) ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font sprintf(',%d', font[k]) notitle
}
unset multiplot
