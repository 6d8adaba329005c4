term = "svg"
output = "rap-fixed-r"
w4 = 4
array r[4] = [2, 0, 3, 1]
r_text = "2, 0, 3, 1"
example = "a[10] = a[2][2] is stored at a[9], bank B[1]"
array kind[3] = ["contiguous", "stride", "diagonal"]
last_warp = 11
w = 32
draws = 2000
trials = 100000
alike = "yes"
array layout[3] = ["rap", "ras", "ras"]
array access[3] = ["diagonal", "diagonal", "stride"]
array fresh[3] = [3.60809, 3.53633, 3.53044]
array fresh_text[3] = ["3.60809", "3.53633", "3.53044"]
cells_xmax = 3.5
c_xmax = 11.6
c_ymax = 4.5
# NMI Fig. 6 from the layout model: (a, b) where RAW and RAP with the paper's fixed r put each a[i][j]
# (rap-fixed-r-cells.csv), (c) the congestion of every row, column and diagonal warp under each at
# that r (rap-fixed-r-warps.csv), and (d) at a GPU's w, the congestion a program sees under one fixed
# r, over many drawn r, beside the Monte Carlo's mean over a fresh r per access (rap-fixed-r.csv).
# Read before this script:
#   term, output     png or svg, the image's path without extension
#   w4, r[i], r_text the example's w and its r (r[1] = r_0), as a list "2, 0, 3, 1"
#   example          where the paper's worked cell lands
#   kind[k]          the access kinds of (c), w4 warps each;  last_warp: (c)'s last bar
#   w, draws, trials, alike   (d)'s w, how many r were drawn, the Monte Carlo's trials, and "yes"
#                    when all w warps of an access had the same congestion under every r (else "NO")
#   layout[s], access[s], fresh[s], fresh_text[s]   (d)'s series and each one's fresh-r mean
#   c_xmax, c_ymax   (c)'s axis ends;  cells_xmax: (a, b)'s

if (term eq 'png') {
  set terminal pngcairo size 1200,980 font ',10'
} else {
  set terminal svg size 1200,980 font 'sans,10'
}
set output output.'.'.term
set datafile separator ','
# One colour per bank of the w = 4 grids.
array bank_colour[4] = ['#fbb4ae', '#b3cde3', '#ccebc5', '#decbe4']
do for [b = 0:w4 - 1] {
  set linetype 11 + b lc rgb bank_colour[b % 4 + 1]
}
set multiplot layout 2,2 title sprintf("NMI Fig. 6 from the layout model: RAW and RAP with the paper's fixed r = (%s), w = %d, and a fixed r against a fresh r at w = %d", r_text, w4, w)
array cells_layout[2] = ['raw', 'rap']
array cells_title[2] = ["(a) RAW: a[i][j] in column j, bank B[j]", "(b) RAP: a[i][j] in column (j + r_i) mod w, bank B[(j + r_i) mod w]\n".example]
do for [g = 1:2] {
  set title cells_title[g]
  unset key
  unset grid
  set size ratio -1
  set xrange [-0.5:cells_xmax]
  set yrange [cells_xmax:-0.5]
  set xlabel 'column of the row in memory (= bank)'
  set ylabel ''
  set xtics 1
  row(i) = g == 1 ? sprintf('row %d', i) : sprintf('row %d, r_%d = %d', i, i, r[i + 1])
  set ytics (row(0) 0)
  do for [i = 1:w4 - 1] {
    set ytics add (row(i) i)
  }
  plot 'rap-fixed-r-cells.csv' using ($5):(strcol(1) eq cells_layout[g] ? $2 : 1/0):(0.48):(0.48):(11 + $7) \
         with boxxyerror fs solid 1.0 border lc rgb '#444444' lc variable notitle, \
       '' using ($5):(strcol(1) eq cells_layout[g] ? $2 : 1/0):(sprintf('a[%d]', $4)) with labels font ',12' notitle
}
# (c): bars, raw beside rap, for each warp of each access kind.
set size noratio
set title "(c) congestion of every warp at this r (row x, column x, diagonal offset x)"
set key top left
set grid y
set xrange [-0.6:c_xmax]
set yrange [0:c_ymax]
set ytics 1
warp(x) = sprintf('%s %d', substr(kind[x / w4 + 1], 1, 4), x % w4)
set xtics rotate by 45 right (warp(0) 0)
do for [x = 1:last_warp] {
  set xtics add (warp(x) x)
}
set xlabel ''
set ylabel 'congestion'
set style fill solid 0.8
set boxwidth 0.38
plot 'rap-fixed-r-warps.csv' using ($1 - 0.2):4 with boxes lc rgb '#377eb8' title 'raw', \
     '' using ($1 + 0.2):5 with boxes lc rgb '#4daf4a' title 'rap, r = ('.r_text.')'
# (d): the empirical CDF of a fixed r's mean congestion, the fresh-r means as vertical lines.
set title sprintf("(d) w = %d, %d r drawn: the congestion of the access's warps under one fixed r\n{/*0.9 all w warps alike under every r: %s (mean shown)}\n{/*0.9 dashed: the Monte Carlo mean, a fresh r per access (%d trials)}", w, draws, alike, trials)
set key bottom right
set grid
set xtics norotate autofreq
set ytics autofreq
set autoscale x
set yrange [0:1]
set xlabel 'congestion of the access under this r'
set ylabel 'fraction of r at or below'
array series_colour[3] = ['#4daf4a', '#e41a1c', '#984ea3']
do for [s = 1:|layout|] {
  set arrow s from fresh[s], graph 0 to fresh[s], graph 1 nohead dt 2 lw 2 lc rgb series_colour[s]
}
plot for [s = 1:|layout|] 'rap-fixed-r.csv' using (strcol(1) eq layout[s] && strcol(2) eq access[s] ? $5 : 1/0):4 \
  with steps lw 2 lc rgb series_colour[s] title sprintf('%s %s (fresh r: %s)', layout[s], access[s], fresh_text[s])
unset multiplot
