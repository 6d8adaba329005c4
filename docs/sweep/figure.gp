# The figure of docs/sweep.md, from the sweep's CSV alone: gnuplot -e "csv='example.csv'" figure.gp
# Columns are found by their header names, rows by their algorithm (and layout) cells; `smooth
# unique` joins the rows of one curve and averages the seeds of one n.
if (!exists("csv")) csv = 'example.csv'
set datafile separator ','
set terminal pngcairo size 1400,560 font ',11'
set output 'example.png'
set multiplot layout 1,2
set grid
set key bottom left
set logscale x 2
set format x '2^{%L}'
set xlabel 'n (elements)'
set ylabel 'simulated time units / n'
set yrange [0:*]
set title 'random permutations on the HMM (w = 32, L = 100, k = 8), mean of seeds 1, 2'
pick(name) = strcol("algorithm") eq name ? column("time_units") / column("n") : NaN
plot csv using "n":(pick("d-designated")) smooth unique with linespoints lw 3 pt 7 ps 1.5 title 'd-designated', \
     csv using "n":(pick("s-designated")) smooth unique with linespoints lw 2 dt 2 pt 6 ps 1.5 title 's-designated', \
     csv using "n":(pick("scheduled")) smooth unique with linespoints lw 3 pt 5 title 'scheduled'
set format x '%g'
set logscale y 2
set yrange [0.8:400]
set key top left
set xlabel 'w (banks)'
set ylabel 'mean congestion'
set title 'a column (stride) access of a w x w matrix under three layouts (NMI Sect. V)'
layout(name) = (strcol("algorithm") eq "congestion" && strcol("layout") eq name) ? column("congestion_mean") : NaN
plot for [l in "raw ras rap"] csv using "w":(layout(l)) smooth unique with linespoints lw 2 pt 7 title l
unset multiplot
