set terminal pngcairo size 1500,1560 font ',10'
set output 'kasagi-fig4.png'
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
set multiplot layout 3,3 title "KNI Fig. 4 from a run: the in-place permutations at n = 256, w = 4, block 0 (16 threads) on the first DMM\n{/*0.9 colour: the tile row (step-1 warp) a value went through; alpha is drawn as stored (the diagonal arrangement: bank = column); values read back from the engine}"
set title "shuffle: a, the cells block 0 reads"
unset key
unset grid
set size ratio -1
set xrange [-0.5:16-0.5]
set yrange [16-0.5:-0.5]
set xtics out nomirror 2
set ytics out nomirror 2
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'shuffle' && strcol(2) eq 'a' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'shuffle' && strcol(2) eq 'a' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',7'
set title "shuffle: alpha of block 0 (cell = a's index)\n{/*0.9 run: 264 time units, correct: yes, 16 of block 0's values in b}\n{/*0.9 most address groups per warp 1, most congestion 1}"
unset key
unset grid
set size ratio -1
set xrange [-0.5:4-0.5]
set yrange [4-0.5:-0.5]
set xtics out nomirror 1
set ytics out nomirror 1
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'shuffle' && strcol(2) eq 'alpha' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'shuffle' && strcol(2) eq 'alpha' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',12'
set title "shuffle: b, where block 0 writes them"
unset key
unset grid
set size ratio -1
set xrange [-0.5:16-0.5]
set yrange [16-0.5:-0.5]
set xtics out nomirror 2
set ytics out nomirror 2
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'shuffle' && strcol(2) eq 'b' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'shuffle' && strcol(2) eq 'b' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',7'
set title "bit-reversal: a, the cells block 0 reads"
unset key
unset grid
set size ratio -1
set xrange [-0.5:16-0.5]
set yrange [16-0.5:-0.5]
set xtics out nomirror 2
set ytics out nomirror 2
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'bit-reversal' && strcol(2) eq 'a' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'bit-reversal' && strcol(2) eq 'a' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',7'
set title "bit-reversal: alpha of block 0 (cell = a's index)\n{/*0.9 run: 264 time units, correct: yes, 16 of block 0's values in b}\n{/*0.9 most address groups per warp 1, most congestion 1}"
unset key
unset grid
set size ratio -1
set xrange [-0.5:4-0.5]
set yrange [4-0.5:-0.5]
set xtics out nomirror 1
set ytics out nomirror 1
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'bit-reversal' && strcol(2) eq 'alpha' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'bit-reversal' && strcol(2) eq 'alpha' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',12'
set title "bit-reversal: b, where block 0 writes them"
unset key
unset grid
set size ratio -1
set xrange [-0.5:16-0.5]
set yrange [16-0.5:-0.5]
set xtics out nomirror 2
set ytics out nomirror 2
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'bit-reversal' && strcol(2) eq 'b' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'bit-reversal' && strcol(2) eq 'b' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',7'
set title "transpose: a, the cells block 0 reads"
unset key
unset grid
set size ratio -1
set xrange [-0.5:16-0.5]
set yrange [16-0.5:-0.5]
set xtics out nomirror 2
set ytics out nomirror 2
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'transpose' && strcol(2) eq 'a' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'transpose' && strcol(2) eq 'a' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',7'
set title "transpose: alpha of block 0 (cell = a's index)\n{/*0.9 run: 264 time units, correct: yes, 16 of block 0's values in b}\n{/*0.9 most address groups per warp 1, most congestion 1}"
unset key
unset grid
set size ratio -1
set xrange [-0.5:4-0.5]
set yrange [4-0.5:-0.5]
set xtics out nomirror 1
set ytics out nomirror 1
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'transpose' && strcol(2) eq 'alpha' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'transpose' && strcol(2) eq 'alpha' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',12'
set title "transpose: b, where block 0 writes them"
unset key
unset grid
set size ratio -1
set xrange [-0.5:16-0.5]
set yrange [16-0.5:-0.5]
set xtics out nomirror 2
set ytics out nomirror 2
set xlabel 'column'
set ylabel 'row'
plot 'kasagi-fig4.csv' using (strcol(1) eq 'transpose' && strcol(2) eq 'b' ? $4 : 1/0):3:(0.5):(0.5):($6 < 0 ? 20 : 21 + $6) with boxxyerror fs solid 1.0 border lc rgb '#999999' lc variable, '' using (strcol(1) eq 'transpose' && strcol(2) eq 'b' ? $4 : 1/0):3:($6 < 0 ? '' : strcol(5)) with labels font ',7'
unset multiplot
