#!/usr/bin/env bash
# Nsight Compute's counters of every case of the real-access catalogue (experiments/accesses.h):
# runs `mmsim gpu accesses --profile` (each case launched once, 128 warp instructions) under ncu
# and keeps its CSV as OUT/ncu-accesses.csv, from which `mmsim accesses --ncu` makes the table
# beside the simulator. Only the metrics this ncu knows are asked for (a name it does not know would
# fail the whole run). Optional: without ncu it says so and exits 0.
#   cuda/ncu_accesses.sh MMSIM OUT
set -uo pipefail
MMSIM=$1
OUT=$2
# shellcheck source=ncu_lib.sh
source "$(dirname "$0")/ncu_lib.sh"
need_ncu ncu_accesses.sh "counters"
WANTED=(
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_red l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_red
  l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__data_bank_conflicts_pipe_lsu_mem_shared
  smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st smsp__inst_executed_op_shared_atom
  smsp__inst_executed_op_shared_red smsp__sass_inst_executed_op_shared
  l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld
  l1tex__t_requests_pipe_lsu_mem_global_op_st l1tex__t_sectors_pipe_lsu_mem_global_op_st
  l1tex__t_requests_pipe_lsu_mem_global_op_atom l1tex__t_sectors_pipe_lsu_mem_global_op_atom
  l1tex__t_requests_pipe_lsu_mem_global_op_red l1tex__t_sectors_pipe_lsu_mem_global_op_red
  smsp__inst_executed_op_global_red
  smsp__inst_executed_op_global_ld smsp__inst_executed_op_global_st
)
KNOWN=$("$NCU" --query-metrics 2>/dev/null | awk '{print $1}')
METRICS=""
for m in "${WANTED[@]}"; do
  if grep -qx "$m" <<<"$KNOWN"; then METRICS="$METRICS${METRICS:+,}$m.sum"; else echo "ncu_accesses.sh: ncu has no $m" >&2; fi
done
rm -f "$OUT/ncu-accesses.csv"
if ! timeout "${MMSIM_GPU_NCU_S:-300}" "$NCU" --clock-control none --csv --log-file "$OUT/ncu-accesses.csv" \
    --metrics "$METRICS" -k "regex:k_shared_instruction|k_global_instruction" "$MMSIM" gpu accesses --profile \
    >/dev/null 2>"$OUT/ncu-accesses.log"; then
  echo "ncu_accesses.sh: ncu failed or timed out (see ncu-accesses.log); counters skipped" >&2
  exit 0
fi
sed -i '/^==/d' "$OUT/ncu-accesses.csv"
exit 0
