term = "svg"
output = "kasagi-fig4"
width = 1500
height = 1560
csv = "kasagi-fig4.csv"
layout_rows = 3
layout_cols = 3
title = "KNI Fig. 4 from a run: the in-place permutations at n = 256, w = 4, block 0 (16 threads) on the first DMM\n{/*0.9 colour: the tile row (step-1 warp) a value went through; alpha is drawn as stored (the diagonal arrangement: bank = column); values read back from the engine}"
array key[9] = ["shuffle", "shuffle", "shuffle", "bit-reversal", "bit-reversal", "bit-reversal", "transpose", "transpose", "transpose"]
array panel[9] = ["a", "alpha", "b", "a", "alpha", "b", "a", "alpha", "b"]
array caption[9] = ["shuffle: a, the cells block 0 reads", "shuffle: alpha of block 0 (cell = a's index)\n{/*0.9 run: 264 time units, correct: yes, 16 of block 0's values in b}\n{/*0.9 most address groups per warp 1, most congestion 1}", "shuffle: b, where block 0 writes them", "bit-reversal: a, the cells block 0 reads", "bit-reversal: alpha of block 0 (cell = a's index)\n{/*0.9 run: 264 time units, correct: yes, 16 of block 0's values in b}\n{/*0.9 most address groups per warp 1, most congestion 1}", "bit-reversal: b, where block 0 writes them", "transpose: a, the cells block 0 reads", "transpose: alpha of block 0 (cell = a's index)\n{/*0.9 run: 264 time units, correct: yes, 16 of block 0's values in b}\n{/*0.9 most address groups per warp 1, most congestion 1}", "transpose: b, where block 0 writes them"]
array rows[9] = [16, 4, 16, 16, 4, 16, 16, 4, 16]
array cols[9] = [16, 4, 16, 16, 4, 16, 16, 4, 16]
array font[9] = [7, 12, 7, 7, 12, 7, 7, 12, 7]
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
