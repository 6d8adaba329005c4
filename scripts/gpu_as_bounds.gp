# AS bounds on the GPU: one instance's time (GPU cycles, one warp alone on its SM) against the
# bound's expression, with the line cycles = c x expression that `mmsim fit-bounds as` fitted through
# the origin, and the simulated steps against the same expression beside it; one figure per result.
# Read before this script (`mmsim fit-bounds as DIR --format gnuplot`):
#   figures      how many results have checked rows (figure i for i = 1 .. figures)
#   device       "(NAME)" or ""
#   output[i]    the figure's path without its extension;  points[i]: its .dat (w m bound cycles
#                fitted sim_steps cycles/bound)
#   heading[i], xlabel[i]   the title and the expression's name;  c[i], steps_c[i]: the constants
# and term ("png" or "svg"), given on gnuplot's command line.

do for [i = 1:figures] {
  if (term eq 'png') {
    set terminal pngcairo size 900,560 font ',10'
  } else {
    set terminal svg size 900,560 font 'sans,10'
  }
  set output output[i].'.'.term
  set title heading[i].' '.device."\n{/*0.9 one warp alone on its SM, cycles by clock64(), every output checked; line: least squares through the origin}"
  set xlabel xlabel[i]
  set ylabel 'GPU cycles per instance'
  set y2label 'simulated steps'
  set ytics nomirror
  set y2tics
  set grid
  set key top left Left reverse
  set logscale xy
  set logscale y2
  plot points[i] using 3:4 with points pt 7 ps 1.2 lc rgb '#e41a1c' title 'GPU cycles', \
       '' using 3:5 with lines lw 2 lc rgb '#e41a1c' title sprintf('fitted: %s x %s', c[i], xlabel[i]), \
       '' using 3:6 axes x1y2 with points pt 6 ps 1.2 lc rgb '#377eb8' \
         title sprintf('simulated steps (%s x %s)', steps_c[i], xlabel[i])
}
