output = "bmmc-optimisations"
# BDS Fig. 9 on the simulated HMM: the time units of each BPC/BMMC kernel per workload, a clustered
# histogram from bmmc-optimisations.dat (one line per workload, one column per kernel).
# Read before this script: output, the images' path without extension (output.png, output.svg).

do for [term in "png svg"] {
  if (term eq 'png') {
    set terminal pngcairo size 1400,900
  } else {
    set terminal svg size 1400,900
  }
  set output output.'.'.term
  set title 'BPC/BMMC kernels on the simulated HMM (n = 2^{18}, w = 32, L = 100, k = 8)'
  set style data histogram
  set style histogram clustered gap 1
  set style fill solid 0.8 border -1
  set ylabel 'time units (round-synchronous)'
  set logscale y
  set key top left
  set grid ytics
  plot 'bmmc-optimisations.dat' using 2:xtic(1) title col, '' using 3 title col, '' using 4 title col, \
       '' using 5 title col
}
