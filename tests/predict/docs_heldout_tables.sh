#!/usr/bin/env bash
# docs/prediction.md's held-out tables (by chosen model, by every model, and the S/D ratio), its two
# calibrations' rows, and the model choices and rows of the H100's calibrations of 2026-12-07 are
# what experiments/heldout/compare.py makes of the committed files, line for line; and compare.py
# refuses a bad call with one line and status 2.
#   docs_heldout_tables.sh SOURCE_DIR
set -u
src=$1
cd "$src" || exit 1
fail=0
doc=docs/prediction.md
while IFS= read -r line; do
  grep -qxF -- "$line" "$doc" || { echo "FAIL: not in $doc: $line"; fail=1; }
done < <(
  python3 experiments/heldout/compare.py heldout results/gpu-h100/heldout-h100.csv results/gpu-h200/heldout-h200.csv
  python3 experiments/heldout/compare.py models results/gpu-h100/heldout-h100-by-model.csv \
    results/gpu-h200/heldout-h200-by-model.csv || echo "compare.py models failed"
  python3 experiments/heldout/compare.py ds results/gpu-h100 results/gpu-h200 || echo "compare.py ds failed"
  r=results/gpu-h100/recalibration-2026-12-07
  python3 experiments/heldout/compare.py choices $r/profile-h100.json $r/same-host/profile-h100.json \
    $r/other-host/profile-h100.json || echo "compare.py choices failed"
)
check_row() {  # GPU OLD_MODEL NEW_MODEL OLD_TABLE: the change and errors the doc's row gives
  local out
  out=$(python3 experiments/heldout/compare.py calibrations "$4" "$2" \
    "results/gpu-$1/recalibration-2026-11-26/validate-kni.csv" "$3") || { echo "FAIL: compare.py calibrations $1"; fail=1; return; }
  local change worst errors
  change=$(sed -E 's/.*median change ([0-9.]+ %).*/\1/' <<<"$out")
  worst=$(sed -E 's/.*worst ([0-9.]+x).*/\1/' <<<"$out")
  errors=$(sed -E 's/.*\|error\| ([0-9.]+) .* \/ ([0-9.]+) .*/\1 \/ \2/' <<<"$out")
  grep -qF -- "| $change, $worst (69 runs) | $errors |" "$doc" || { echo "FAIL: $1's row is not $out"; fail=1; }
}
check_row h100 dram-rows dram-rows results/gpu-h100/calibration-2026-11-23/validate.csv
check_row h200 rmw-rows rmw-rows-rw results/gpu-h200/validate.csv
# The H100's calibrations of 2026-12-07: each table against the first machine's, the H100's
# committed profile since 2026-12-08, whose tables are results/gpu-h100's.
check_against_first() {  # TABLE MODEL: the row of the doc's table that names TABLE
  local first=results/gpu-h100/validate.csv out runs change worst errors
  out=$(python3 experiments/heldout/compare.py calibrations "$first" rmw-rows-rw "$1" "$2") ||
    { echo "FAIL: compare.py calibrations $1"; fail=1; return; }
  runs=$(sed -E 's/^([0-9]+) runs.*/\1/' <<<"$out")
  change=$(sed -E 's/.*median change ([0-9.]+ %).*/\1/' <<<"$out")
  worst=$(sed -E 's/.*worst ([0-9.]+x).*/\1/' <<<"$out")
  errors=$(sed -E 's/.*\|error\| ([0-9.]+) .* \/ ([0-9.]+) .*/\1 \/ \2/' <<<"$out")
  grep -qF -- ", $2) | $runs | $change, $worst | $errors |" "$doc" || { echo "FAIL: $1's row is not $out"; fail=1; }
}
r=results/gpu-h100/recalibration-2026-12-07
check_against_first $r/same-host/validate-kni.csv rmw-rows-rw
check_against_first $r/other-host/validate-kni.csv rmw-rows-rw
check_against_first results/gpu-h100/recalibration-2026-11-26/validate-kni.csv dram-rows
check_against_first results/gpu-h100/calibration-2026-11-23/validate.csv dram-rows
# A bad call, and a held-out CSV of one model a profile where one of every model is asked for.
for args in "nonsense" "models results/gpu-h100/heldout-h100.csv" "models results/no-such-file.csv" "ds results/no-such-gpu" \
  "choices results/gpu-h100/validate.csv"; do
  # shellcheck disable=SC2086
  python3 experiments/heldout/compare.py $args >/dev/null 2>"${TMPDIR:-/tmp}/compare_err.$$"
  status=$?
  [ "$status" = 2 ] && [ "$(wc -l <"${TMPDIR:-/tmp}/compare_err.$$")" = 1 ] ||
    { echo "FAIL: compare.py $args gave status $status"; fail=1; }
done
rm -f "${TMPDIR:-/tmp}/compare_err.$$"
exit $fail
