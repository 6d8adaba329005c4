#!/usr/bin/env bash
# AS bounds on the GPU: one instance's time (GPU cycles, one warp alone on its SM) against the
# bound's expression over the shapes `mmsim gpu sorting` ran (DIR/as-gpu.csv), with cycles = c x
# expression fitted through the origin by `mmsim fit-bounds as`, and the simulated steps beside it:
# as_sort_bound (AS Theorems 1-2), as_partition_bound (Corollary 1, Theorem 1, Lemma 2) and
# as_permute_bound (Theorem 4), each DIR/NAME.{dat,png,svg}; a result with no checked rows is skipped.
#   scripts/gpu_bounds_figures.sh [DIR]   (default results/gpu-h200)
set -euo pipefail
source "$(dirname "$0")/gpu_figure_lib.sh"
DIR=${1:-results/gpu-h200}
[ -f "$DIR/as-gpu.csv" ] || { echo "gpu_bounds_figures: $DIR/as-gpu.csv not found (run mmsim gpu sorting --out $DIR first)" >&2; exit 2; }
gpu_figure gpu_as_bounds "$DIR" fit-bounds as
