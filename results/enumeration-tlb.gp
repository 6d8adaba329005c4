output = "enumeration-tlb"
w = 32
k = 8
resident = 2
array algo[7] = ["IP naive", "IP super grid r=4", "IP V1", "IP V1R", "IP V1B w=4", "OOP NVIDIA", "OOP V1BF w=4"]
ymax = 17
solid = "IP naive and IP V1 coincide"
dashed = "all but IP super grid r=4 coincide"
misses = "IP naive and IP V1 coincide"
# GL Figs. 2, 9-11 on the simulated HMM: the throughput of each transposition block order against
# the matrix order, with the TLB (solid) and without it (dashed), and its TLB misses, from
# enumeration-tlb.dat (one block per algorithm: order, cells per time unit without and with the TLB,
# misses). Read before this script:
#   output            the images' path without extension (output.png, output.svg)
#   w, k, resident    the machine: width, DMMs, resident blocks per DMM
#   algo[i]           the blocks' algorithms (their names carry the band as "w=4")
#   ymax              the throughput panel's top, room above the highest curve
#   solid, dashed, misses   which curves coincide (within 1% at every order), said under each title

key_title = 'in the names: w = band width, r = super-grid region side (in tiles)'
do for [term in "png svg"] {
  if (term eq 'png') {
    set terminal pngcairo size 1500,600
  } else {
    set terminal svg size 1500,600
  }
  set output output.'.'.term
  set multiplot layout 1,2 title sprintf('GL on the simulated HMM: block order under a TLB (machine: w = %d, k = %d, %d resident blocks per DMM)', w, k, resident)
  set xlabel 'matrix order'
  set grid
  # The legend: first column solid (TLB on), second column dashed (TLB off), one colour and one
  # marker per algorithm.
  set key bottom left font ',9' maxrows |algo| title key_title
  set yrange [0:ymax]
  set title "throughput with the TLB (solid) and without it (dashed)\n{/*0.85 solid: ".solid."; dashed: ".dashed." (within 1%)}"
  set ylabel 'cells per time unit'
  plot for [i = 1:|algo|] 'enumeration-tlb.dat' index (i - 1) using 1:3 with linespoints lw 2 ps 1.5 pt 3 + i lc i \
         title algo[i], \
       for [i = 1:|algo|] 'enumeration-tlb.dat' index (i - 1) using 1:2 with lines dt 2 lw 1.5 lc i \
         title (algo[i].', no TLB')
  set key top left font ',9' maxrows |algo| title key_title
  set yrange [*:*]
  set title "TLB misses\n{/*0.85 ".misses." (within 1%)}"
  set ylabel 'misses + 1'
  set logscale y
  plot for [i = 1:|algo|] 'enumeration-tlb.dat' index (i - 1) using 1:($4+1) with linespoints lw 2 ps 1.5 pt 3 + i lc i \
    title algo[i]
  unset multiplot
}
