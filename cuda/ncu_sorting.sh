#!/usr/bin/env bash
# Optional step of `./mmsim.sh gpu-reproduce` (stage sorting): Nsight Compute's shared-memory
# bank-conflict counters of the AS kernels (one instance, one launch per algorithm and m) beside the
# simulator's bank_conflicts for the same input, written to OUTDIR/as-ncu.md. It never fails its
# caller: no ncu, no permission for the counters, a timeout or an unreadable output only skip it.
#   usage: cuda/ncu_sorting.sh MMSIM OUTDIR [options of `mmsim gpu sorting`, e.g. --max-m 512]
MMSIM=$1
OUT=$2
shift 2
# shellcheck source=ncu_lib.sh
source "$(dirname "$0")/ncu_lib.sh"
need_ncu ncu_sorting.sh "bank-conflict counters"
CONFLICTS=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
# The shared-memory instructions executed, to compare with the simulator's steps: tried first, left
# out if this ncu does not know them.
INSTRUCTIONS=smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed.sum
profile() {
  rm -f "$OUT/ncu-sorting.csv"
  timeout "${MMSIM_GPU_NCU_S:-180}" "$NCU" --clock-control none --csv --log-file "$OUT/ncu-sorting.csv" \
    --metrics "$1" -k regex:k_as "$MMSIM" gpu sorting --ncu-launches "${@:2}" >/dev/null 2>>"$OUT/ncu-sorting.log"
}
: >"$OUT/ncu-sorting.log"
if ! profile "$CONFLICTS,$INSTRUCTIONS" "$@" && ! profile "$CONFLICTS" "$@"; then
  echo "ncu_sorting.sh: ncu failed or timed out (see ncu-sorting.log); bank-conflict counters skipped" >&2
  exit 0
fi
# ncu's notes of the profiled process name its path on that machine: not a result, dropped.
sed -i '/^==PROF== \(Connected\|Disconnected\)/d' "$OUT/ncu-sorting.csv"
"$MMSIM" gpu sorting --ncu-csv "$OUT/ncu-sorting.csv" --out "$OUT" "$@" ||
  echo "ncu_sorting.sh: could not read ncu's output (see ncu-sorting.csv); bank-conflict counters skipped" >&2
exit 0
