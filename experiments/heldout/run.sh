#!/usr/bin/env bash
# experiments/heldout/run.sh MMSIM OUT_DIR PROFILE...: the held-out set of docs/prediction.md timed on
# this machine's GPU (`mmsim gpu run --perm-file`: the D- and S-designated kernels, float, every
# output checked) and predicted from each PROFILE (`mmsim predict --perm-file`); writes
# OUT_DIR/heldout-<device>.csv (one row per run and profile) and prints its summary. On a GPU
# machine; the permutation files (a few GB at 2^25) go to OUT_DIR/perms. MMSIM_HELDOUT_STAGES picks
# the stages (default: perms time predict summary), so that the work fits several calls.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: run.sh MMSIM OUT_DIR PROFILE..." >&2; exit 2; }
mmsim=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
sizes=${MMSIM_HELDOUT_SIZES:-21 23 25}
# The predictions are kept by profile file name: two profiles of one name would overwrite each other's.
names=$(for p in "$@"; do basename "$p"; done)
[ "$(echo "$names" | sort | uniq -d)" = "" ] || { echo "run.sh: two profiles share a file name" >&2; exit 2; }
stages=" ${MMSIM_HELDOUT_STAGES:-perms time predict summary} "
stage() { [[ "$stages" == *" $1 "* ]]; }
mkdir -p "$out/perms" "$out/gpu" "$out/predict"
if stage perms; then
  patterns=$(python3 -c "import sys; sys.path.insert(0, '$here'); import perms; print(' '.join(perms.PATTERNS))")
  for b in $sizes; do for p in $patterns; do echo "$p $b"; done; done |
    xargs -P "$jobs" -n 2 sh -c 'python3 "$0" "$1" "$3" --only "$2"' "$here/perms.py" "$out/perms"
fi
if stage time; then
  for f in "$out"/perms/*.txt; do
    name=$(basename "$f" .txt) n=${name##*-n}
    "$mmsim" gpu run --perm-file "$f" -n "$n" --runs 50 >"$out/gpu/$name.md"
  done
fi
if stage predict; then
  # Every prediction, a few at a time (each with two threads).
  for profile in "$@"; do
    tag=$(basename "$profile" .json)
    for f in "$out"/perms/*.txt; do
      name=$(basename "$f" .txt)
      for alg in d-designated s-designated; do echo "$alg $f ${name##*-n} $profile $out/predict/$tag.$name.$alg.json"; done
    done
  done | xargs -P "$(((jobs + 1) / 2))" -n 5 sh -c \
    '"$0" predict "$1" --perm-file "$2" -n "$3" --profile "$4" --json --threads 2 >"$5"' "$mmsim"
fi
if stage summary; then
  python3 "$here/summary.py" "$out" "${MMSIM_HELDOUT_DEVICE:-$("$mmsim" gpu info --slug)}" "$("$mmsim" --version | tr "\n" " ")" "$@"
fi
