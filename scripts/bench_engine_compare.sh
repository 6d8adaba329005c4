#!/usr/bin/env bash
# The engine and the predictor before and after a change, on one host, alternating so that a load
# that comes and goes touches both alike: builds a baseline and this tree (Release, no CUDA, no
# Python), then prints twice, baseline first, `mmsim bench -n 2^24 --threads T` and
# `mmsim bench-predict` at 2^24 (sampled and exact) and at 2^28 (sampled only: the exact one
# takes minutes).
#
# Usage: scripts/bench_engine_compare.sh [BASELINE_SOURCE_DIR]
#   BASELINE_SOURCE_DIR: a source tree of the baseline. Without it the baseline is `git archive`d
#   from $BASE_REF (default main), which needs the repository's .git.
# Environment: THREADS (default: every core), PROFILE (default results/gpu-h100/profile-h100.json),
#   WORK (default /tmp/mmsim-bench-compare), SKIP_2_28=1 to leave out the 2^28 prediction.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-/tmp/mmsim-bench-compare}
threads=${THREADS:-$(nproc)}
profile=${PROFILE:-$here/results/gpu-h100/profile-h100.json}
mkdir -p "$work"

if [[ $# -ge 1 ]]; then
  base_src=$(cd "$1" && pwd)
else
  base_src=$work/base-src
  rm -rf "$base_src" && mkdir -p "$base_src"
  git -C "$here" archive "${BASE_REF:-main}" | tar -x -C "$base_src"
fi

build() {  # build SOURCE_DIR BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DMMSIM_CUDA=OFF -DMMSIM_PYTHON=OFF >/dev/null
  cmake --build "$2" -j "$(nproc)" --target mmsim >/dev/null
}
build "$base_src" "$work/build-base"
build "$here" "$work/build-new"

for pass in 1 2; do
  for which in base new; do
    m=$work/build-$which/cli/mmsim
    echo "=== pass $pass: $which"
    "$m" bench -n 16777216 --threads "$threads"
    "$m" bench-predict --profile "$profile" --log2n 24 --threads "$threads"
    [[ ${SKIP_2_28:-0} == 1 ]] || "$m" bench-predict --profile "$profile" --log2n 28 --no-exact --threads "$threads"
  done
done
