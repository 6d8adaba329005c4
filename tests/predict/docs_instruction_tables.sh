#!/usr/bin/env bash
# docs/prediction.md's tables of the instruction term's fit and of the A-S runs priced with it, of
# the H100's tile benches, of the H100's BMMC kernels with the tile floor, and of the A-S kernels on
# the two GPUs, are what experiments/instructions/compare.py makes of the committed files, line for
# line; and compare.py refuses a folder without the files with one line and status 2. Given MMSIM,
# also docs/your-kernel.md's table of the H100's stream benches predicted with the instruction term.
#   docs_instruction_tables.sh SOURCE_DIR [MMSIM]
set -u
src=$1
mmsim=${2:-}
cd "$src" || exit 1
fail=0
doc=docs/prediction.md
dirs=()
# Every GPU folder whose validation priced A-S with the instruction term (its own microbenchmarks,
# or another GPU's through validate --instructions-from).
for d in results/gpu-*; do grep -qs "^instruction term" "$d/validate-summary.md" && dirs+=("$d"); done
[ -f results/gpu-h100/instructions.csv ] || { echo "FAIL: results/gpu-h100 has no instructions.csv"; exit 1; }
[ ${#dirs[@]} -gt 0 ] || { echo "FAIL: no GPU folder's validation priced A-S with the instruction term"; exit 1; }
while IFS= read -r line; do
  grep -qxF -- "$line" "$doc" || { echo "FAIL: not in $doc: $line"; fail=1; }
done < <(
  c=experiments/instructions/compare.py
  python3 $c as "${dirs[@]}"
  python3 $c fit "${dirs[@]}"
  python3 $c tiles results/gpu-h100
  python3 $c kernels results/gpu-h100/calibration-2026-11-23/validate.csv BMMC dram-rows
  python3 $c siblings results/gpu-h100 results/gpu-h200
)
if [ -n "$mmsim" ]; then
  while IFS= read -r line; do
    grep -qxF -- "$line" docs/your-kernel.md || { echo "FAIL: not in docs/your-kernel.md: $line"; fail=1; }
  done < <(python3 experiments/instructions/compare.py stream "$mmsim" results/gpu-h100 \
    results/gpu-h100/profile-h100.json || echo "compare.py stream failed")
fi
empty=$(mktemp -d)
for args in "as $empty" "tiles $empty" "stream $mmsim $empty $empty" "siblings $empty $empty" "kernels $empty/validate.csv BMMC dram-rows" \
  "kernels results/gpu-h100/validate.csv no-such-family dram-rows" "kernels one-argument"; do
  # shellcheck disable=SC2086
  python3 experiments/instructions/compare.py $args >/dev/null 2>"$empty/err"
  status=$?
  [ "$status" = 2 ] && [ "$(wc -l <"$empty/err")" = 1 ] ||
    { echo "FAIL: compare.py $args gave status $status"; fail=1; }
done
rm -rf "$empty"
exit $fail
