set terminal pngcairo size 1040,870 font ',10'
set output 'rap-congestion.png'
set datafile separator ','
set logscale xy 2
set grid
unset key
set yrange [0.8:*]
set xrange [3.0769:1331.2000]
set xlabel 'w (banks = threads per warp)'
set ylabel 'expected congestion'
set multiplot layout 2,2 title 'Expected congestion of one warp access to a w x w matrix (NMI Sect. V; 4000 trials per point, seed 1)'
set title "access: stride\n{/*0.9 coincide: rap = pad = xor}"
plot 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'raw' ? $3*0.9330 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#e41a1c' pt 4, 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'ras' ? $3*0.9659 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#377eb8' pt 6, 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'rap' ? $3*1.0000 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#4daf4a' pt 8, 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'pad' ? $3*1.0353 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#984ea3' pt 10, 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'xor' ? $3*1.0718 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#ff7f00' pt 12
set title "access: diagonal\n{/*0.9 coincide: ras = rap from w = 16}"
plot 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'raw' ? $3*0.9330 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#e41a1c' pt 4, 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'ras' ? $3*0.9659 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#377eb8' pt 6, 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'rap' ? $3*1.0000 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#4daf4a' pt 8, 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'pad' ? $3*1.0353 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#984ea3' pt 10, 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'xor' ? $3*1.0718 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#ff7f00' pt 12
set title "access: random\n{/*0.9 coincide: raw = ras = rap = pad = xor}"
plot 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'raw' ? $3*0.9330 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#e41a1c' pt 4, 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'ras' ? $3*0.9659 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#377eb8' pt 6, 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'rap' ? $3*1.0000 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#4daf4a' pt 8, 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'pad' ? $3*1.0353 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#984ea3' pt 10, 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'xor' ? $3*1.0718 : 1/0):4 with linespoints lw 2 ps 1.2 lc rgb '#ff7f00' pt 12
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
set label 1 "access contiguous not drawn: congestion 1 for every layout at every w\neach layout's markers are shifted sideways by at most 7% of w,\nso that curves that coincide stay visible; every point is at a power of two\ncoincide: within 3% of each other at every w (closer than a marker)" at graph 0.5, graph 0.12 center font ',9'
plot NaN with linespoints lw 2 ps 1.2 lc rgb '#e41a1c' pt 4 title 'raw', NaN with linespoints lw 2 ps 1.2 lc rgb '#377eb8' pt 6 title 'ras', NaN with linespoints lw 2 ps 1.2 lc rgb '#4daf4a' pt 8 title 'rap', NaN with linespoints lw 2 ps 1.2 lc rgb '#984ea3' pt 10 title 'pad', NaN with linespoints lw 2 ps 1.2 lc rgb '#ff7f00' pt 12 title 'xor'
unset label 1
unset multiplot
