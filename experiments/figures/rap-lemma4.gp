# NMI Lemma 4 and Theorem 2: Pr[congestion >= c] of one warp access to a w x w matrix, by Monte Carlo,
# for every layout (one curve each) and access pattern (one panel each) at each w (one row of panels
# each), beside the tail bound that Lemma 4 and the proof of Theorem 2 give for rap, from the
# figure's CSV (w,layout,pattern,congestion,trials,pr_at_least,...). Read before this script:
#   term, output, width, height   png or svg, the image's path without extension, its size
#   csv, title, ymin              the CSV, the figure's title, the lowest probability drawn
#   layout[i]                     the curves;  pattern[p]: the panels of a row (panels of them)
#   width_w[r], xmax[r], threshold[r]   row r's w, its axis' end and Lemma 4's threshold
#   ones[(r - 1) * panels + p]    the layouts whose congestion was always 1 in that panel ("" if none)
#   $bound                        the bound as a step function of integer c up to w, one block per row

if (term eq 'png') {
  set terminal pngcairo size width,height font ',10'
} else {
  set terminal svg size width,height font 'sans,10'
}
set output output.'.'.term
set datafile separator ','
set logscale xy 2
set format y '10^{%L}'
set logscale y 10
set grid
set yrange [ymin:1.5]
set xlabel 'congestion c'
set ylabel 'Pr[congestion >= c]'
set key at graph 0.03, graph 0.72 left top Left reverse font ',9'
set multiplot layout |width_w|,panels title title
# The same colour per layout as in rap-congestion.
array colour[5] = ['#e41a1c', '#377eb8', '#4daf4a', '#984ea3', '#ff7f00']
do for [r = 1:|width_w|] {
  do for [p = 1:panels] {
    # A layout whose congestion is always 1 is the single point (1, 1): named, since the others hide it.
    k = (r - 1) * panels + p
    set title sprintf("w = %d, access: %s", width_w[r], pattern[p]).(ones[k] eq '' ? '' : "\n{/*0.85 congestion always 1 (the point at c = 1): ".ones[k]."}")
    set xrange [0.9:xmax[r]]
    # One legend, in the first panel, where the curves leave its corner free.
    if (k == 1) {
      set key
    } else {
      unset key
    }
    set arrow 1 from threshold[r], graph 0 to threshold[r], graph 1 nohead dt 3 lw 2 lc rgb '#555555'
    # The bound inline: the CSV carries it only up to each curve's largest c, and rap's curve may stop at c = 2.
    plot for [i = 1:|layout|] csv using ($1 == width_w[r] && strcol(2) eq layout[i] && strcol(3) eq pattern[p] ? $4 : 1/0):6 \
           with linespoints lw 2 ps 0.8 pt 2 + 2 * i lc rgb colour[(i - 1) % 5 + 1] title layout[i], \
         $bound index (r - 1) using 1:2 with steps lw 2 dt 2 lc rgb 'black' title 'bound (rap, any access)'
  }
}
unset multiplot
