set terminal pngcairo size 1500,600
set output 'enumeration-tlb.png'
set multiplot layout 1,2 title 'GL on the simulated HMM: block order under a TLB (machine: w = 32, k = 8, 2 resident blocks per DMM)'
set xlabel 'matrix order'
set grid
set key bottom left font ',9' maxrows 7 title 'in the names: w = band width, r = super-grid region side (in tiles)'
set yrange [0:17]
set title "throughput with the TLB (solid) and without it (dashed)\n{/*0.85 solid: IP naive and IP V1 coincide; dashed: all but IP super grid r=4 coincide (within 1%)}"
set ylabel 'cells per time unit'
plot 'enumeration-tlb.dat' index 0 using 1:3 with linespoints lw 2 ps 1.5 pt 4 lc 1 title 'IP naive', 'enumeration-tlb.dat' index 1 using 1:3 with linespoints lw 2 ps 1.5 pt 5 lc 2 title 'IP super grid r=4', 'enumeration-tlb.dat' index 2 using 1:3 with linespoints lw 2 ps 1.5 pt 6 lc 3 title 'IP V1', 'enumeration-tlb.dat' index 3 using 1:3 with linespoints lw 2 ps 1.5 pt 7 lc 4 title 'IP V1R', 'enumeration-tlb.dat' index 4 using 1:3 with linespoints lw 2 ps 1.5 pt 8 lc 5 title 'IP V1B w=4', 'enumeration-tlb.dat' index 5 using 1:3 with linespoints lw 2 ps 1.5 pt 9 lc 6 title 'OOP NVIDIA', 'enumeration-tlb.dat' index 6 using 1:3 with linespoints lw 2 ps 1.5 pt 10 lc 7 title 'OOP V1BF w=4', 'enumeration-tlb.dat' index 0 using 1:2 with lines dt 2 lw 1.5 lc 1 title 'IP naive, no TLB', 'enumeration-tlb.dat' index 1 using 1:2 with lines dt 2 lw 1.5 lc 2 title 'IP super grid r=4, no TLB', 'enumeration-tlb.dat' index 2 using 1:2 with lines dt 2 lw 1.5 lc 3 title 'IP V1, no TLB', 'enumeration-tlb.dat' index 3 using 1:2 with lines dt 2 lw 1.5 lc 4 title 'IP V1R, no TLB', 'enumeration-tlb.dat' index 4 using 1:2 with lines dt 2 lw 1.5 lc 5 title 'IP V1B w=4, no TLB', 'enumeration-tlb.dat' index 5 using 1:2 with lines dt 2 lw 1.5 lc 6 title 'OOP NVIDIA, no TLB', 'enumeration-tlb.dat' index 6 using 1:2 with lines dt 2 lw 1.5 lc 7 title 'OOP V1BF w=4, no TLB'
set key top left font ',9' maxrows 7 title 'in the names: w = band width, r = super-grid region side (in tiles)'
set yrange [*:*]
set title "TLB misses\n{/*0.85 IP naive and IP V1 coincide (within 1%)}"
set ylabel 'misses + 1'
set logscale y
plot 'enumeration-tlb.dat' index 0 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 4 lc 1 title 'IP naive', 'enumeration-tlb.dat' index 1 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 5 lc 2 title 'IP super grid r=4', 'enumeration-tlb.dat' index 2 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 6 lc 3 title 'IP V1', 'enumeration-tlb.dat' index 3 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 7 lc 4 title 'IP V1R', 'enumeration-tlb.dat' index 4 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 8 lc 5 title 'IP V1B w=4', 'enumeration-tlb.dat' index 5 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 9 lc 6 title 'OOP NVIDIA', 'enumeration-tlb.dat' index 6 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 10 lc 7 title 'OOP V1BF w=4'
unset multiplot
set terminal svg size 1500,600
set output 'enumeration-tlb.svg'
set multiplot layout 1,2 title 'GL on the simulated HMM: block order under a TLB (machine: w = 32, k = 8, 2 resident blocks per DMM)'
set xlabel 'matrix order'
set grid
set key bottom left font ',9' maxrows 7 title 'in the names: w = band width, r = super-grid region side (in tiles)'
set yrange [0:17]
set title "throughput with the TLB (solid) and without it (dashed)\n{/*0.85 solid: IP naive and IP V1 coincide; dashed: all but IP super grid r=4 coincide (within 1%)}"
set ylabel 'cells per time unit'
plot 'enumeration-tlb.dat' index 0 using 1:3 with linespoints lw 2 ps 1.5 pt 4 lc 1 title 'IP naive', 'enumeration-tlb.dat' index 1 using 1:3 with linespoints lw 2 ps 1.5 pt 5 lc 2 title 'IP super grid r=4', 'enumeration-tlb.dat' index 2 using 1:3 with linespoints lw 2 ps 1.5 pt 6 lc 3 title 'IP V1', 'enumeration-tlb.dat' index 3 using 1:3 with linespoints lw 2 ps 1.5 pt 7 lc 4 title 'IP V1R', 'enumeration-tlb.dat' index 4 using 1:3 with linespoints lw 2 ps 1.5 pt 8 lc 5 title 'IP V1B w=4', 'enumeration-tlb.dat' index 5 using 1:3 with linespoints lw 2 ps 1.5 pt 9 lc 6 title 'OOP NVIDIA', 'enumeration-tlb.dat' index 6 using 1:3 with linespoints lw 2 ps 1.5 pt 10 lc 7 title 'OOP V1BF w=4', 'enumeration-tlb.dat' index 0 using 1:2 with lines dt 2 lw 1.5 lc 1 title 'IP naive, no TLB', 'enumeration-tlb.dat' index 1 using 1:2 with lines dt 2 lw 1.5 lc 2 title 'IP super grid r=4, no TLB', 'enumeration-tlb.dat' index 2 using 1:2 with lines dt 2 lw 1.5 lc 3 title 'IP V1, no TLB', 'enumeration-tlb.dat' index 3 using 1:2 with lines dt 2 lw 1.5 lc 4 title 'IP V1R, no TLB', 'enumeration-tlb.dat' index 4 using 1:2 with lines dt 2 lw 1.5 lc 5 title 'IP V1B w=4, no TLB', 'enumeration-tlb.dat' index 5 using 1:2 with lines dt 2 lw 1.5 lc 6 title 'OOP NVIDIA, no TLB', 'enumeration-tlb.dat' index 6 using 1:2 with lines dt 2 lw 1.5 lc 7 title 'OOP V1BF w=4, no TLB'
set key top left font ',9' maxrows 7 title 'in the names: w = band width, r = super-grid region side (in tiles)'
set yrange [*:*]
set title "TLB misses\n{/*0.85 IP naive and IP V1 coincide (within 1%)}"
set ylabel 'misses + 1'
set logscale y
plot 'enumeration-tlb.dat' index 0 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 4 lc 1 title 'IP naive', 'enumeration-tlb.dat' index 1 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 5 lc 2 title 'IP super grid r=4', 'enumeration-tlb.dat' index 2 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 6 lc 3 title 'IP V1', 'enumeration-tlb.dat' index 3 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 7 lc 4 title 'IP V1R', 'enumeration-tlb.dat' index 4 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 8 lc 5 title 'IP V1B w=4', 'enumeration-tlb.dat' index 5 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 9 lc 6 title 'OOP NVIDIA', 'enumeration-tlb.dat' index 6 using 1:($4+1) with linespoints lw 2 ps 1.5 pt 10 lc 7 title 'OOP V1BF w=4'
unset multiplot
