# BDS Fig. 11 on the GPU: the speed-up of the optimised BPC/BMMC kernels over the naive one by array
# size, as `mmsim gpu-speedups` recomputed it from the median times (one panel per workload). Read
# before this script (`mmsim gpu-speedups DIR --format gnuplot`):
#   output   the figure's path without its extension;  points: bmmc_speedup.dat (one block per
#            workload: workload log2_n tile tile-banks tile-banks-iters)
#   device   the device as bmmc.csv names it
# and term ("png" or "svg"), given on gnuplot's command line.

if (term eq 'png') {
  set terminal pngcairo size 1500,520 font ',10'
} else {
  set terminal svg size 1500,520 font 'sans,10'
}
set output output.'.'.term
set multiplot layout 1,3 title "BDS Fig. 11 on the GPU: speed-up over the naive kernel by array size (32-bit elements; ".device.")\n{/*0.9 median of the timed runs of each kernel; every output checked against the CPU; a random BPC/BMMC is drawn afresh at each size; dashed: speed-up 1}"
set xlabel 'log_2 n (array size 2^{20} .. 2^{30})'
set ylabel 'speed-up over naive (naive time / kernel time)'
set grid
set key top left Left reverse
set xrange [19.5:30.5]
set xtics 20,1,30
set yrange [0:*]
set style line 1 lc rgb '#377eb8' lw 1.5 pt 6 ps 1.1
set style line 2 lc rgb '#4daf4a' lw 1.5 pt 8 ps 1.1
set style line 3 lc rgb '#e41a1c' lw 3 pt 7 ps 1.2
do for [b = 0:2] {
  set title (b == 0 ? 'random BPC' : b == 1 ? 'random BMMC (two tiled passes)' : 'bit-reversal')
  plot 1 with lines dt 2 lc rgb '#777777' notitle, \
       points index b using 2:3 with linespoints ls 1 title 'tile', \
       '' index b using 2:4 with linespoints ls 2 title 'tile-banks', \
       '' index b using 2:5 with linespoints ls 3 title 'tile-banks-iters (all optimisations)'
}
unset multiplot
