set terminal pngcairo size 1200,980 font ',10'
set output 'rap-fixed-r.png'
set datafile separator ','
set linetype 11 lc rgb '#fbb4ae'
set linetype 12 lc rgb '#b3cde3'
set linetype 13 lc rgb '#ccebc5'
set linetype 14 lc rgb '#decbe4'
set multiplot layout 2,2 title "NMI Fig. 6 from the layout model: RAW and RAP with the paper's fixed r = (2, 0, 3, 1), w = 4, and a fixed r against a fresh r at w = 32"
set title "(a) RAW: a[i][j] in column j, bank B[j]"
unset key
unset grid
set size ratio -1
set xrange [-0.5:3.5]
set yrange [3.5:-0.5]
set xlabel 'column of the row in memory (= bank)'
set ylabel ''
set xtics 1
set ytics ("row 0" 0, "row 1" 1, "row 2" 2, "row 3" 3)
plot 'rap-fixed-r-cells.csv' using ($5):(strcol(1) eq 'raw' ? $2 : 1/0):(0.48):(0.48):(11 + $7) with boxxyerror fs solid 1.0 border lc rgb '#444444' lc variable, '' using ($5):(strcol(1) eq 'raw' ? $2 : 1/0):(sprintf('a[%d]', $4)) with labels font ',12'
set title "(b) RAP: a[i][j] in column (j + r_i) mod w, bank B[(j + r_i) mod w]\na[10] = a[2][2] is stored at a[9], bank B[1]"
unset key
unset grid
set size ratio -1
set xrange [-0.5:3.5]
set yrange [3.5:-0.5]
set xlabel 'column of the row in memory (= bank)'
set ylabel ''
set xtics 1
set ytics ("row 0, r_0 = 2" 0, "row 1, r_1 = 0" 1, "row 2, r_2 = 3" 2, "row 3, r_3 = 1" 3)
plot 'rap-fixed-r-cells.csv' using ($5):(strcol(1) eq 'rap' ? $2 : 1/0):(0.48):(0.48):(11 + $7) with boxxyerror fs solid 1.0 border lc rgb '#444444' lc variable, '' using ($5):(strcol(1) eq 'rap' ? $2 : 1/0):(sprintf('a[%d]', $4)) with labels font ',12'
set size noratio
set title "(c) congestion of every warp at this r (row x, column x, diagonal offset x)"
set key top left
set grid y
set xrange [-0.6:11.6]
set yrange [0:4.5]
set ytics 1
set xtics rotate by 45 right ("cont 0" 0, "cont 1" 1, "cont 2" 2, "cont 3" 3, "stri 0" 4, "stri 1" 5, "stri 2" 6, "stri 3" 7, "diag 0" 8, "diag 1" 9, "diag 2" 10, "diag 3" 11)
set xlabel ''
set ylabel 'congestion'
set style fill solid 0.8
set boxwidth 0.38
plot 'rap-fixed-r-warps.csv' using ($1 - 0.2):4 with boxes lc rgb '#377eb8' title 'raw', '' using ($1 + 0.2):5 with boxes lc rgb '#4daf4a' title 'rap, r = (2, 0, 3, 1)'
set title "(d) w = 32, 2000 r drawn: the congestion of the access's warps under one fixed r\n{/*0.9 all w warps alike under every r: yes (mean shown)}\n{/*0.9 dashed: the Monte Carlo mean, a fresh r per access (100000 trials)}"
set key bottom right
set grid
set xtics norotate autofreq
set ytics autofreq
set autoscale x
set yrange [0:1]
set xlabel 'congestion of the access under this r'
set ylabel 'fraction of r at or below'
set arrow 1 from 3.60809, graph 0 to 3.60809, graph 1 nohead dt 2 lw 2 lc rgb '#4daf4a'
set arrow 2 from 3.53633, graph 0 to 3.53633, graph 1 nohead dt 2 lw 2 lc rgb '#e41a1c'
set arrow 3 from 3.53044, graph 0 to 3.53044, graph 1 nohead dt 2 lw 2 lc rgb '#984ea3'
plot 'rap-fixed-r.csv' using (strcol(1) eq 'rap' && strcol(2) eq 'diagonal' ? $5 : 1/0):4 with steps lw 2 lc rgb '#4daf4a' title 'rap diagonal (fresh r: 3.60809)', 'rap-fixed-r.csv' using (strcol(1) eq 'ras' && strcol(2) eq 'diagonal' ? $5 : 1/0):4 with steps lw 2 lc rgb '#e41a1c' title 'ras diagonal (fresh r: 3.53633)', 'rap-fixed-r.csv' using (strcol(1) eq 'ras' && strcol(2) eq 'stride' ? $5 : 1/0):4 with steps lw 2 lc rgb '#984ea3' title 'ras stride (fresh r: 3.53044)'
unset multiplot
