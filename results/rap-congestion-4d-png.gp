term = "png"
output = "rap-congestion-4d"
width = 1560
height = 870
csv = "rap-congestion-4d.csv"
layout_rows = 2
layout_cols = 3
title = "Expected congestion of one warp access to a w^4 array (NMI Sect. VII; 1000 trials per point, seed 1)"
xmin = 3.0769
xmax = 166.4000
array layout[7] = ["raw", "ras", "1p", "r1p", "3p", "w2p", "1pw2r"]
array shift[7] = [0.9013, 0.9330, 0.9659, 1.0000, 1.0353, 1.0718, 1.1096]
panels = 5
array pattern[5] = ["stride1", "stride2", "stride3", "random", "malicious"]
array coincide[5] = ["coincide: 1p = r1p = 3p = w2p = 1pw2r", "coincide: raw = 1p; ras = w2p = 1pw2r; r1p = 3p", "coincide: raw = 1p; ras = w2p = 1pw2r; r1p = 3p", "coincide: raw = ras = 1p = r1p = 3p = w2p = 1pw2r", "coincide: raw = 1p; ras = w2p = 1pw2r; ras = w2p = 1pw2r = 3p from w = 8"]
notes = "access contiguous not drawn: congestion 1 for every layout at every w\neach layout's markers are shifted sideways by at most 11% of w,\nso that curves that coincide stay visible; every point is at a power of two\ncoincide: within 3% of each other at every w (closer than a marker)"
# NMI Sect. V and VII: the expected congestion of one warp access against w, one panel per access
# pattern and one curve per layout, from the figure's CSV (layout,pattern,w,mean,...), log-log so
# that raw's w and rap's 1 both show; the last panel holds the one legend and the notes.
# Read before this script:
#   term, output, width, height    png or svg, the image's path without extension, its size
#   csv, layout_rows, layout_cols, title, xmin, xmax
#   layout[i], shift[i]   the curves, each layout's markers shifted sideways by the factor shift[i]
#                         so that curves that coincide stay visible
#   panels                the patterns drawn; pattern[p] and coincide[p], what its subtitle says
#   notes                 the legend panel's text

if (term eq 'png') {
  set terminal pngcairo size width,height font ',10'
} else {
  set terminal svg size width,height font 'sans,10'
}
set output output.'.'.term
set datafile separator ','
set logscale xy 2
set grid
unset key
set yrange [0.8:*]
set xrange [xmin:xmax]
set xlabel 'w (banks = threads per warp)'
set ylabel 'expected congestion'
set multiplot layout layout_rows,layout_cols title title
# One colour and one open marker per layout, the same layout in the same place of both figures.
array colour[7] = ['#e41a1c', '#377eb8', '#4daf4a', '#984ea3', '#ff7f00', '#a65628', '#f781bf']
array marker[7] = [4, 6, 8, 10, 12, 1, 2]
style(i) = (i - 1) % 7 + 1
do for [p = 1:panels] {
  set title "access: ".pattern[p]."\n{/*0.9 ".coincide[p]."}"
  plot for [i = 1:|layout|] csv using (strcol(2) eq pattern[p] && strcol(1) eq layout[i] ? $3*shift[i] : 1/0):4 \
    with linespoints lw 2 ps 1.2 lc rgb colour[style(i)] pt marker[style(i)] notitle
}
# The legend panel: one key for every panel, and what is not drawn and why.
unset title
unset border
unset tics
unset grid
unset xlabel
unset ylabel
unset logscale
set xrange [0:1]
set yrange [0:1]
set key center top samplen 3 spacing 1.2 font ',11'
set label 1 notes at graph 0.5, graph 0.12 center font ',9'
plot for [i = 1:|layout|] NaN with linespoints lw 2 ps 1.2 lc rgb colour[style(i)] pt marker[style(i)] title layout[i]
unset label 1
unset multiplot
