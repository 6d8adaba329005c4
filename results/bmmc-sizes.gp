output = "bmmc-sizes"
seeds = 20
# BDS Fig. 11 on the simulated HMM: the speed-up of the optimised kernels over the naive one by size,
# from bmmc-sizes.dat (per size and workload: speed-up, lowest and highest per-seed speed-up, seeds).
# Log y, so that the slow-downs below 1 at small n and the spread at every n both read as ratios;
# the three workloads are drawn a little apart in x so that their bars do not cover each other.
# Read before this script: output, the images' path without extension (output.png, output.svg);
# seeds, how many random matrices each random workload's point averages.

do for [term in "png svg"] {
  if (term eq 'png') {
    set terminal pngcairo size 1400,900
  } else {
    set terminal svg size 1400,900
  }
  set output output.'.'.term
  set title sprintf("Speed-up of the optimised kernels over the naive one (simulated HMM, w = 32, L = 100, k = 8)\n{/*0.85 random BPC and BMMC: mean naive time / mean optimised time over %d seeds (one matrix each); bars: lowest to highest per-seed speed-up. bit-reversal: one matrix, no spread.}\n{/*0.85 the three workloads are drawn 0.08 apart in x; each point is at an integer log2 n}", seeds)
  set xlabel 'log2 n'
  set ylabel 'speed-up (round-synchronous time units)'
  set key top left
  set grid
  set logscale y 2
  set xrange [9.6:18.4]
  set xtics 1
  plot 'bmmc-sizes.dat' using ($1-0.08):2:3:4 with yerrorlines lw 2 pt 7 title 'random BPC (min to max)', \
       '' using 1:6:7:8 with yerrorlines lw 2 pt 5 title 'random BMMC (min to max)', \
       '' using ($1+0.08):10 with linespoints lw 2 pt 9 title 'bit-reversal', \
       1 with lines lc rgb 'gray40' dt 3 title 'speed-up 1 (no gain)'
}
