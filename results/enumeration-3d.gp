set terminal pngcairo size 1400,600
set output 'enumeration-3d.png'
set multiplot layout 1,2 title 'GL Figs. 14-15 on the simulated HMM: 3D involutions in place with a TLB (w = 32, k = 8, band 4 tiles)'
set xlabel 'order n'
set ylabel 'cells per time unit'
set grid
set key bottom left font ',9'
set yrange [0:*]
set title 'T_{yxz}: n x n x depth'
plot 'enumeration-3d.dat' index 0 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 1 title 'original, depth 2', 'enumeration-3d.dat' index 1 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 2 title 'original, depth 4', 'enumeration-3d.dat' index 2 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 1 title 'V1B, depth 2', 'enumeration-3d.dat' index 3 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 2 title 'V1B, depth 4', 'enumeration-3d.dat' index 2 using 1:3 with lines dt 3 lc rgb 'gray40' title 'any grid, no TLB, depth 2'
set title 'T_{zyx}: n x depth x n'
plot 'enumeration-3d.dat' index 4 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 1 title 'original, depth 2', 'enumeration-3d.dat' index 5 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 2 title 'original, depth 4', 'enumeration-3d.dat' index 6 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 1 title 'V1B, depth 2', 'enumeration-3d.dat' index 7 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 2 title 'V1B, depth 4', 'enumeration-3d.dat' index 6 using 1:3 with lines dt 3 lc rgb 'gray40' title 'any grid, no TLB, depth 2'
unset multiplot
set terminal svg size 1400,600
set output 'enumeration-3d.svg'
set multiplot layout 1,2 title 'GL Figs. 14-15 on the simulated HMM: 3D involutions in place with a TLB (w = 32, k = 8, band 4 tiles)'
set xlabel 'order n'
set ylabel 'cells per time unit'
set grid
set key bottom left font ',9'
set yrange [0:*]
set title 'T_{yxz}: n x n x depth'
plot 'enumeration-3d.dat' index 0 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 1 title 'original, depth 2', 'enumeration-3d.dat' index 1 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 2 title 'original, depth 4', 'enumeration-3d.dat' index 2 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 1 title 'V1B, depth 2', 'enumeration-3d.dat' index 3 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 2 title 'V1B, depth 4', 'enumeration-3d.dat' index 2 using 1:3 with lines dt 3 lc rgb 'gray40' title 'any grid, no TLB, depth 2'
set title 'T_{zyx}: n x depth x n'
plot 'enumeration-3d.dat' index 4 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 1 title 'original, depth 2', 'enumeration-3d.dat' index 5 using 1:2 with linespoints lw 2 ps 1.3 dt 2 pt 4 lc 2 title 'original, depth 4', 'enumeration-3d.dat' index 6 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 1 title 'V1B, depth 2', 'enumeration-3d.dat' index 7 using 1:2 with linespoints lw 2 ps 1.3 dt 1 pt 7 lc 2 title 'V1B, depth 4', 'enumeration-3d.dat' index 6 using 1:3 with lines dt 3 lc rgb 'gray40' title 'any grid, no TLB, depth 2'
unset multiplot
