#!/usr/bin/env bash
# BDS Fig. 11 on the GPU: speed-up of the optimised BPC/BMMC kernels over the naive one by array size
# (2^20 .. 2^30), from the CSV that `mmsim gpu bmmc` wrote (DIR/bmmc.csv). `mmsim gpu-speedups`
# recomputes each speed-up from the measured median times (naive / kernel, same workload and size)
# and refuses a CSV whose own speed-up column disagrees, so a change to either shows; the figure is
# DIR/bmmc_speedup.{dat,png,svg}.
#   scripts/gpu_bmmc_figures.sh [DIR]   (default results/gpu-h200)
set -euo pipefail
source "$(dirname "$0")/gpu_figure_lib.sh"
DIR=${1:-results/gpu-h200}
[ -f "$DIR/bmmc.csv" ] || { echo "gpu_bmmc_figures: $DIR/bmmc.csv not found (run mmsim gpu bmmc --out $DIR first)" >&2; exit 2; }
gpu_figure gpu_bmmc_speedup "$DIR" gpu-speedups
