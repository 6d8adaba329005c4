set terminal svg size 1500,480 font 'sans,10'
set output 'kasagi-fig6.svg'
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
set multiplot layout 1,4 title "KNI Fig. 6 from a run: the scheduled permutation of a random P (seed 1), sqrt(n) = 4, w = 4; 192 time units\n{/*0.9 each cell: (row, column) of its destination P; colour: the column it takes in step 1 (its edge colour); b[i][j] holds (i j) everywhere: yes}"
set title "a (input)"
unset key
unset grid
set size ratio -1
set xrange [-0.5:4-0.5]
set yrange [4-0.5:-0.5]
set xtics out nomirror 1
set ytics out nomirror 1
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig6.csv' using (strcol(1) eq 'fig6' && strcol(2) eq 'a' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'fig6' && strcol(2) eq 'a' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',12'
set title "after step 1 (row-wise):\ncolour c to column c"
unset key
unset grid
set size ratio -1
set xrange [-0.5:4-0.5]
set yrange [4-0.5:-0.5]
set xtics out nomirror 1
set ytics out nomirror 1
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig6.csv' using (strcol(1) eq 'fig6' && strcol(2) eq 'step1' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'fig6' && strcol(2) eq 'step1' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',12'
set title "after step 2 (column-wise):\nto the destination row"
unset key
unset grid
set size ratio -1
set xrange [-0.5:4-0.5]
set yrange [4-0.5:-0.5]
set xtics out nomirror 1
set ytics out nomirror 1
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig6.csv' using (strcol(1) eq 'fig6' && strcol(2) eq 'step2' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'fig6' && strcol(2) eq 'step2' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',12'
set title "b, after step 3 (row-wise):\nto the destination column"
unset key
unset grid
set size ratio -1
set xrange [-0.5:4-0.5]
set yrange [4-0.5:-0.5]
set xtics out nomirror 1
set ytics out nomirror 1
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig6.csv' using (strcol(1) eq 'fig6' && strcol(2) eq 'b' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'fig6' && strcol(2) eq 'b' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',12'
unset multiplot
