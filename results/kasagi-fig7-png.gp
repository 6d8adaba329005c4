set terminal pngcairo size 800,620 font ',10'
set output 'kasagi-fig7.png'
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
set title "KNI Fig. 7 from a run: the bipartite multigraph of Fig. 6's permutation\n{/*0.9 edge: one element, from its source row to its destination row, labelled (row column) of its destination,\nin the colour the run gave it; each colour a perfect matching: yes}"
unset key
unset grid
unset border
unset xtics
unset ytics
set xrange [-0.35:1.35]
set yrange [4-0.4:-0.6]
set label 'row 0' at -0.06, 0 right font ',11'
set label 'row 0' at 1.06, 0 left font ',11'
set label 'row 1' at -0.06, 1 right font ',11'
set label 'row 1' at 1.06, 1 left font ',11'
set label 'row 2' at -0.06, 2 right font ',11'
set label 'row 2' at 1.06, 2 left font ',11'
set label 'row 3' at -0.06, 3 right font ',11'
set label 'row 3' at 1.06, 3 left font ',11'
set label 'source rows' at 0, -0.45 center font ',11'
set label 'destination rows' at 1, -0.45 center font ',11'
set style textbox opaque noborder
plot 'kasagi-fig7.csv' using (0):2:(0.200000):($6 - $2):(21 + $5) with vectors nohead lw 2.5 lc variable, '' using (0.200000):6:(1 - 0.200000):($3 - $6):(21 + $5) with vectors nohead lw 2.5 lc variable, '' using (0.200000):6:(sprintf('(%d %d)', $3, $4)):(21 + $5) with labels boxed font ',8' tc variable, '' using (0):2 with points pt 7 ps 2.2 lc rgb '#333333', '' using (1):3 with points pt 7 ps 2.2 lc rgb '#333333'
