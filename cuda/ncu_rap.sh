#!/usr/bin/env bash
# Optional step of `./mmsim.sh gpu-reproduce`: Nsight Compute's shared-memory bank-conflict counters
# of the float 32 x 32 transposes (NMI Sect. VI; one block, one launch each) beside the
# simulator's bank_conflicts for the same layouts, written to OUTDIR/rap-ncu.md. It never fails its
# caller: no ncu, no permission for the counters, a timeout or an unreadable output only skip it.
#   usage: cuda/ncu_rap.sh MMSIM OUTDIR
MMSIM=$1
OUT=$2
# shellcheck source=ncu_lib.sh
source "$(dirname "$0")/ncu_lib.sh"
need_ncu ncu_rap.sh "bank-conflict counters"
METRICS=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
rm -f "$OUT/ncu-rap.csv"
if ! timeout "${MMSIM_GPU_NCU_S:-90}" "$NCU" --clock-control none --csv --log-file "$OUT/ncu-rap.csv" \
    --metrics "$METRICS" -k regex:k_rap_transpose "$MMSIM" gpu rap-profile >/dev/null 2>"$OUT/ncu-rap.log"; then
  echo "ncu_rap.sh: ncu failed or timed out (see ncu-rap.log); bank-conflict counters skipped" >&2
  exit 0
fi
# ncu's notes of the profiled process name its path on that machine: not a result, dropped.
sed -i '/^==PROF== \(Connected\|Disconnected\)/d' "$OUT/ncu-rap.csv"
"$MMSIM" gpu rap-ncu "$OUT/ncu-rap.csv" --out "$OUT" >/dev/null ||
  echo "ncu_rap.sh: could not read ncu's output (see ncu-rap.csv); bank-conflict counters skipped" >&2
exit 0
