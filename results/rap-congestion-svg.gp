set terminal svg size 1040,840 font 'sans,10'
set output 'rap-congestion.svg'
set datafile separator ','
set logscale xy 2
set grid
set key top left
set yrange [0.8:*]
set xlabel 'w (banks = threads per warp)'
set ylabel 'expected congestion'
set multiplot layout 2,2 title 'Expected congestion of one warp access to a w x w matrix (NMI Sect. V; 4000 trials per point; curves that coincide hide each other)'
set title 'access: contiguous'
plot 'rap-congestion.csv' using (strcol(2) eq 'contiguous' && strcol(1) eq 'raw' ? $3 : 1/0):4 with linespoints lw 2 pt 4 title 'raw', 'rap-congestion.csv' using (strcol(2) eq 'contiguous' && strcol(1) eq 'ras' ? $3 : 1/0):4 with linespoints lw 2 pt 5 title 'ras', 'rap-congestion.csv' using (strcol(2) eq 'contiguous' && strcol(1) eq 'rap' ? $3 : 1/0):4 with linespoints lw 2 pt 6 title 'rap', 'rap-congestion.csv' using (strcol(2) eq 'contiguous' && strcol(1) eq 'pad' ? $3 : 1/0):4 with linespoints lw 2 pt 7 title 'pad', 'rap-congestion.csv' using (strcol(2) eq 'contiguous' && strcol(1) eq 'xor' ? $3 : 1/0):4 with linespoints lw 2 pt 8 title 'xor'
set title 'access: stride'
plot 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'raw' ? $3 : 1/0):4 with linespoints lw 2 pt 4 title 'raw', 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'ras' ? $3 : 1/0):4 with linespoints lw 2 pt 5 title 'ras', 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'rap' ? $3 : 1/0):4 with linespoints lw 2 pt 6 title 'rap', 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'pad' ? $3 : 1/0):4 with linespoints lw 2 pt 7 title 'pad', 'rap-congestion.csv' using (strcol(2) eq 'stride' && strcol(1) eq 'xor' ? $3 : 1/0):4 with linespoints lw 2 pt 8 title 'xor'
set title 'access: diagonal'
plot 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'raw' ? $3 : 1/0):4 with linespoints lw 2 pt 4 title 'raw', 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'ras' ? $3 : 1/0):4 with linespoints lw 2 pt 5 title 'ras', 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'rap' ? $3 : 1/0):4 with linespoints lw 2 pt 6 title 'rap', 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'pad' ? $3 : 1/0):4 with linespoints lw 2 pt 7 title 'pad', 'rap-congestion.csv' using (strcol(2) eq 'diagonal' && strcol(1) eq 'xor' ? $3 : 1/0):4 with linespoints lw 2 pt 8 title 'xor'
set title 'access: random'
plot 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'raw' ? $3 : 1/0):4 with linespoints lw 2 pt 4 title 'raw', 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'ras' ? $3 : 1/0):4 with linespoints lw 2 pt 5 title 'ras', 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'rap' ? $3 : 1/0):4 with linespoints lw 2 pt 6 title 'rap', 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'pad' ? $3 : 1/0):4 with linespoints lw 2 pt 7 title 'pad', 'rap-congestion.csv' using (strcol(2) eq 'random' && strcol(1) eq 'xor' ? $3 : 1/0):4 with linespoints lw 2 pt 8 title 'xor'
unset multiplot
