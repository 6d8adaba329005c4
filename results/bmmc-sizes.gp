set terminal pngcairo size 1400,900
set output 'bmmc-sizes.png'
set title 'Speed-up of the optimised kernels over the naive one (simulated HMM, w = 32, L = 100, k = 8)'
set xlabel 'log2 n'
set ylabel 'speed-up (round-synchronous time units)'
set key top left
set grid
plot for [c=2:4] 'bmmc-sizes.dat' using 1:c with linespoints lw 2 title columnheader(c)
set terminal svg size 1400,900
set output 'bmmc-sizes.svg'
set title 'Speed-up of the optimised kernels over the naive one (simulated HMM, w = 32, L = 100, k = 8)'
set xlabel 'log2 n'
set ylabel 'speed-up (round-synchronous time units)'
set key top left
set grid
plot for [c=2:4] 'bmmc-sizes.dat' using 1:c with linespoints lw 2 title columnheader(c)
