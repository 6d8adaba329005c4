set terminal pngcairo size 1400,900
set output 'bmmc-optimisations.png'
set title 'BPC/BMMC kernels on the simulated HMM (n = 2^{18}, w = 32, L = 100, k = 8)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'time units (round-synchronous)'
set logscale y
set key top left
set grid ytics
plot 'bmmc-optimisations.dat' using 2:xtic(1) title col, '' using 3 title col, '' using 4 title col, '' using 5 title col
set terminal svg size 1400,900
set output 'bmmc-optimisations.svg'
set title 'BPC/BMMC kernels on the simulated HMM (n = 2^{18}, w = 32, L = 100, k = 8)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'time units (round-synchronous)'
set logscale y
set key top left
set grid ytics
plot 'bmmc-optimisations.dat' using 2:xtic(1) title col, '' using 3 title col, '' using 4 title col, '' using 5 title col
