#!/usr/bin/env bash
# Figures of the GPU enumeration-scheme transposition (GL Figs. 9-15) from the CSVs that
# `mmsim gpu enumeration` wrote, through the series `mmsim gpu-throughput` picks: throughput against
# the matrix order (TW among the 2D schemes), the out-of-place heat maps, and the 3D involutions
# T_yxz and T_zyx against the order (DIR/enumeration_{throughput,3d,heatmap}.{png,svg}).
#   scripts/gpu_enumeration_figures.sh [DIR]   (default results/gpu-h200)
set -euo pipefail
source "$(dirname "$0")/gpu_figure_lib.sh"
DIR=${1:-results/gpu-h200}
[ -f "$DIR/enumeration.csv" ] || { echo "gpu_enumeration_figures: $DIR/enumeration.csv not found (run mmsim gpu enumeration --out $DIR first)" >&2; exit 2; }
gpu_figure gpu_enumeration "$DIR" gpu-throughput
