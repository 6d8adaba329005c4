#!/usr/bin/env bash
# Optional step of `./mmsim.sh gpu-reproduce` (stage instructions): Nsight Compute's count of the
# warp instructions each instruction microbenchmark executes (one launch of one block per bench),
# written to OUTDIR/instructions-ncu.csv, and each stream bench's (one launch over its elements) to
# OUTDIR/instructions-stream-ncu.csv. It never fails its caller: no ncu, no permission for the
# counters, a timeout or an unreadable output only skip it.
#   usage: cuda/ncu_instructions.sh MMSIM OUTDIR
MMSIM=$1
OUT=$2
# shellcheck source=ncu_lib.sh
source "$(dirname "$0")/ncu_lib.sh"
need_ncu ncu_instructions.sh "instruction counts"
rm -f "$OUT/ncu-instructions.csv"
if ! timeout "${MMSIM_GPU_NCU_S:-180}" "$NCU" --clock-control none --csv --log-file "$OUT/ncu-instructions.csv" \
  --metrics smsp__inst_executed.sum -k 'regex:k_bench|k_stream' "$MMSIM" gpu instructions --ncu-launches \
  >/dev/null 2>"$OUT/ncu-instructions.log"; then
  echo "ncu_instructions.sh: ncu failed or timed out (see ncu-instructions.log); instruction counts skipped" >&2
  exit 0
fi
# ncu's notes of the profiled process name its path on that machine: not a result, dropped.
sed -i '/^==PROF== \(Connected\|Disconnected\)/d' "$OUT/ncu-instructions.csv"
"$MMSIM" gpu instructions --ncu-csv "$OUT/ncu-instructions.csv" --out "$OUT" ||
  echo "ncu_instructions.sh: could not read ncu's output (see ncu-instructions.csv); instruction counts skipped" >&2
exit 0
