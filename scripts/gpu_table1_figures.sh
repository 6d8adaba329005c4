#!/usr/bin/env bash
# KNI Table 1 on the GPU: each row's measured times against the row's bound in time units on the GPU
# profile's machine (DIR/table1-bounds.csv), with ms = c x bound fitted through the origin per kernel
# and element type by `mmsim fit-bounds table1` (DIR/table1_bounds_fit.csv: c, R^2 and the largest
# relative residual; DIR/table1_bounds.dat: the points), drawn into DIR/table1_bounds.{png,svg}.
#   scripts/gpu_table1_figures.sh [DIR]   (default results/gpu-h200; MMSIM_NO_PLOT=1: no figure)
set -euo pipefail
source "$(dirname "$0")/gpu_figure_lib.sh"
DIR=${1:-results/gpu-h200}
[ -f "$DIR/table1-bounds.csv" ] || {
  echo "gpu_table1_figures: $DIR/table1-bounds.csv not found (run mmsim table1-bounds --profile DIR/profile-*.json --measured DIR --out DIR first)" >&2
  exit 2
}
gpu_figure gpu_table1_bounds "$DIR" fit-bounds table1
