# GL on the GPU (Figs. 9-15): the transposition's throughput against the matrix order (TW among the
# 2D schemes), the 3D involutions T_yxz and T_zyx against the order, and the out-of-place heat maps,
# from the series `mmsim gpu-throughput` picked (measured rows only, so that each line is unbroken).
# Read before this script (`mmsim gpu-throughput DIR --format gnuplot`):
#   output                     the figures' path up to "_throughput", "_3d", "_heatmap"
#   $square                    one block (order GB/s) per 2D scheme;  square_title[i], square_kind[i]
#   $cube_yxz, $cube_zyx       likewise per (grid, depth) of each involution, with cube_*_lines blocks,
#                              cube_*_title[i], cube_*_algorithm[i] (naive or v1b), cube_*_depth[i]
#   $heat_nvidia, $heat_v1bf   (cols K, rows K, GB/s or NaN) where has_heat_* is 1
#   cb_low, cb_high            the colour scale, both maps' measured range rounded out to 100 GB/s; 0 when no cell was measured
# and term ("png" or "svg"), given on gnuplot's command line. Each figure starts from gnuplot's
# defaults (reset), as if drawn by a gnuplot of its own.

set_terminal = (term eq 'png') ? 'set terminal pngcairo size 1100,600' : 'set terminal svg size 1100,600'

@set_terminal
set output output.'_throughput.'.term
set title 'Transposition throughput against the matrix order (GPU, float)'
set xlabel 'order (K = 1024)'
set ylabel 'GB/s (8 bytes per cell / median time)'
set key outside right
set grid
set yrange [0:*]
# In place solid, out of place dashed.
plot for [i = 1:|square_title|] $square index (i - 1) using ($1/1024):2 \
  with linespoints dt 1 + (square_kind[i] eq 'out-of-place') title square_title[i]

# The 3D involutions: one panel each, one line per (grid, depth); the original full grid dashed,
# V1B solid, one colour per depth.
if (cube_yxz_lines + cube_zyx_lines > 0) {
  reset
  @set_terminal
  set output output.'_3d.'.term
  set multiplot layout 1,2 title '3D involutions in place: throughput against the order (GPU, float; original grid dashed, V1B solid)'
  set xlabel 'order n (K = 1024)'
  set ylabel 'GB/s (8 bytes per cell / median time)'
  set key below font ',9' maxcols 3
  set grid
  set yrange [0:*]
  set title 'T_{yxz}: n x n x depth, xy planes transposed'
  if (cube_yxz_lines > 0) {
    plot for [i = 1:cube_yxz_lines] $cube_yxz index (i - 1) using ($1/1024):2 \
      with linespoints dt 1 + (cube_yxz_algorithm[i] eq 'naive') lc int(cube_yxz_depth[i]) - 1 title cube_yxz_title[i]
  }
  set title 'T_{zyx}: n x depth x n, xz slices transposed'
  if (cube_zyx_lines > 0) {
    plot for [i = 1:cube_zyx_lines] $cube_zyx index (i - 1) using ($1/1024):2 \
      with linespoints dt 1 + (cube_zyx_algorithm[i] eq 'naive') lc int(cube_zyx_depth[i]) - 1 title cube_zyx_title[i]
  }
  unset multiplot
}

# The heat maps: one colour scale for both panels, the colour box drawn once beside the right panel;
# the panels are placed by hand, two squares of the same size (385 x 385 pixels), so that the box
# takes no room from either.
if (cb_high > 0) {
  reset
  @set_terminal
  set output output.'_heatmap.'.term
  set multiplot title sprintf("Out-of-place throughput (GB/s) by shape: one colour scale for both panels, %d to %d GB/s\nwhite = not measured", cb_low, cb_high)
  set xlabel 'cols (K)'
  set ylabel 'rows (K)'
  set cbrange [cb_low:cb_high]
  set cblabel 'GB/s'
  set palette rgbformulae 33,13,10
  set xrange [0:*]
  set yrange [0:*]
  set bmargin at screen 0.14
  set tmargin at screen 0.78
  set lmargin at screen 0.06
  set rmargin at screen 0.41
  unset colorbox
  if (has_heat_nvidia) {
    set title 'NVIDIA order (OOP)'
    plot $heat_nvidia using 1:2:3 with image notitle
  }
  set lmargin at screen 0.51
  set rmargin at screen 0.86
  set colorbox
  if (has_heat_v1bf) {
    set title 'V1BF order (OOPB)'
    plot $heat_v1bf using 1:2:3 with image notitle
  }
  unset multiplot
}
