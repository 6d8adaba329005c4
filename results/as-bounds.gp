set terminal pngcairo size 1600,1000
set output 'as-bounds.png'
set multiplot layout 2,2 title 'AS on the DMM: simulated steps over the bounds'
set logscale x 2
set xlabel 'm (columns)'
set grid
set key outside right top font ',8'
set title 'as-sort (dashed: bitonic on the flat array)'
set ylabel 'steps / (m log2 mw)'
plot 'as-bounds.dat' index 0 using 1:2 with linespoints lw 2 pt 7 title 'w = 8', 'as-bounds.dat' index 1 using 1:2 with linespoints lw 2 pt 7 title 'w = 16', 'as-bounds.dat' index 2 using 1:2 with linespoints lw 2 pt 7 title 'w = 32', 'as-bounds.dat' index 3 using 1:2 with linespoints lw 2 pt 7 title 'w = 64', 'as-bounds.dat' index 12 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 8', 'as-bounds.dat' index 13 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 16', 'as-bounds.dat' index 14 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 32', 'as-bounds.dat' index 15 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 64'
set title 'as-partition (dashed: direct sends)'
set ylabel 'steps / m'
plot 'as-bounds.dat' index 4 using 1:3 with linespoints lw 2 pt 7 title 'w = 8', 'as-bounds.dat' index 5 using 1:3 with linespoints lw 2 pt 7 title 'w = 16', 'as-bounds.dat' index 6 using 1:3 with linespoints lw 2 pt 7 title 'w = 32', 'as-bounds.dat' index 7 using 1:3 with linespoints lw 2 pt 7 title 'w = 64', 'as-bounds.dat' index 16 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 8', 'as-bounds.dat' index 17 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 16', 'as-bounds.dat' index 18 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 32', 'as-bounds.dat' index 19 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 64'
set title 'as-permute (dashed: direct sends)'
set ylabel 'steps / m'
plot 'as-bounds.dat' index 8 using 1:3 with linespoints lw 2 pt 7 title 'w = 8', 'as-bounds.dat' index 9 using 1:3 with linespoints lw 2 pt 7 title 'w = 16', 'as-bounds.dat' index 10 using 1:3 with linespoints lw 2 pt 7 title 'w = 32', 'as-bounds.dat' index 11 using 1:3 with linespoints lw 2 pt 7 title 'w = 64', 'as-bounds.dat' index 20 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 8', 'as-bounds.dat' index 21 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 16', 'as-bounds.dat' index 22 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 32', 'as-bounds.dat' index 23 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 64'
set title 'time units / m: baselines pay for conflicts'
set ylabel 'time units / m'
plot 'as-bounds.dat' index 20 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 8', 'as-bounds.dat' index 8 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 8', 'as-bounds.dat' index 21 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 16', 'as-bounds.dat' index 9 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 16', 'as-bounds.dat' index 22 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 32', 'as-bounds.dat' index 10 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 32', 'as-bounds.dat' index 23 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 64', 'as-bounds.dat' index 11 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 64'
unset multiplot
set terminal svg size 1600,1000
set output 'as-bounds.svg'
set multiplot layout 2,2 title 'AS on the DMM: simulated steps over the bounds'
set logscale x 2
set xlabel 'm (columns)'
set grid
set key outside right top font ',8'
set title 'as-sort (dashed: bitonic on the flat array)'
set ylabel 'steps / (m log2 mw)'
plot 'as-bounds.dat' index 0 using 1:2 with linespoints lw 2 pt 7 title 'w = 8', 'as-bounds.dat' index 1 using 1:2 with linespoints lw 2 pt 7 title 'w = 16', 'as-bounds.dat' index 2 using 1:2 with linespoints lw 2 pt 7 title 'w = 32', 'as-bounds.dat' index 3 using 1:2 with linespoints lw 2 pt 7 title 'w = 64', 'as-bounds.dat' index 12 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 8', 'as-bounds.dat' index 13 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 16', 'as-bounds.dat' index 14 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 32', 'as-bounds.dat' index 15 using 1:(column(2)) with linespoints dt 2 pt 6 title 'baseline w = 64'
set title 'as-partition (dashed: direct sends)'
set ylabel 'steps / m'
plot 'as-bounds.dat' index 4 using 1:3 with linespoints lw 2 pt 7 title 'w = 8', 'as-bounds.dat' index 5 using 1:3 with linespoints lw 2 pt 7 title 'w = 16', 'as-bounds.dat' index 6 using 1:3 with linespoints lw 2 pt 7 title 'w = 32', 'as-bounds.dat' index 7 using 1:3 with linespoints lw 2 pt 7 title 'w = 64', 'as-bounds.dat' index 16 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 8', 'as-bounds.dat' index 17 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 16', 'as-bounds.dat' index 18 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 32', 'as-bounds.dat' index 19 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 64'
set title 'as-permute (dashed: direct sends)'
set ylabel 'steps / m'
plot 'as-bounds.dat' index 8 using 1:3 with linespoints lw 2 pt 7 title 'w = 8', 'as-bounds.dat' index 9 using 1:3 with linespoints lw 2 pt 7 title 'w = 16', 'as-bounds.dat' index 10 using 1:3 with linespoints lw 2 pt 7 title 'w = 32', 'as-bounds.dat' index 11 using 1:3 with linespoints lw 2 pt 7 title 'w = 64', 'as-bounds.dat' index 20 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 8', 'as-bounds.dat' index 21 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 16', 'as-bounds.dat' index 22 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 32', 'as-bounds.dat' index 23 using 1:(column(3)) with linespoints dt 2 pt 6 title 'baseline w = 64'
set title 'time units / m: baselines pay for conflicts'
set ylabel 'time units / m'
plot 'as-bounds.dat' index 20 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 8', 'as-bounds.dat' index 8 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 8', 'as-bounds.dat' index 21 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 16', 'as-bounds.dat' index 9 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 16', 'as-bounds.dat' index 22 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 32', 'as-bounds.dat' index 10 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 32', 'as-bounds.dat' index 23 using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = 64', 'as-bounds.dat' index 11 using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = 64'
unset multiplot
