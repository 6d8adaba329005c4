output = "enumeration-3d"
w = 32
k = 8
band = 4
array depth[2] = [2, 4]
# GL Figs. 14-15 on the simulated HMM: the 3D involutions T_yxz and T_zyx in place with a TLB, cells
# per time unit against the order, from enumeration-3d.dat (blocks 4p .. 4p + 3 for panel p:
# original then V1B, each at both depths; order, cells per time unit with and without the TLB).
# Original dashed, V1B solid, one colour per depth; the TLB-off curve (thin, dotted) shows what the
# order alone costs. Read before this script:
#   output       the images' path without extension (output.png, output.svg)
#   w, k, band   the machine and the band in tiles;  depth[d]: the two depths

do for [term in "png svg"] {
  if (term eq 'png') {
    set terminal pngcairo size 1400,600
  } else {
    set terminal svg size 1400,600
  }
  set output output.'.'.term
  set multiplot layout 1,2 title sprintf('GL Figs. 14-15 on the simulated HMM: 3D involutions in place with a TLB (w = %d, k = %d, band %d tiles)', w, k, band)
  set xlabel 'order n'
  set ylabel 'cells per time unit'
  set grid
  set key bottom left font ',9'
  set yrange [0:*]
  do for [p = 0:1] {
    set title (p == 0 ? 'T_{yxz}: n x n x depth' : 'T_{zyx}: n x depth x n')
    plot for [b = 0:3] 'enumeration-3d.dat' index (4 * p + b) using 1:2 with linespoints lw 2 ps 1.3 dt 2 - (b >= 2) \
           pt 4 + 3 * (b >= 2) lc b % 2 + 1 title sprintf('%s, depth %d', b >= 2 ? 'V1B' : 'original', depth[b % 2 + 1]), \
         'enumeration-3d.dat' index (4 * p + 2) using 1:3 with lines dt 3 lc rgb 'gray40' \
           title sprintf('any grid, no TLB, depth %d', depth[1])
  }
  unset multiplot
}
