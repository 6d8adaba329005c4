#!/usr/bin/env bash
# Optional step of `./mmsim.sh gpu-reproduce` (stage parm): Nsight Compute's global-memory sectors per
# request and shared-memory bank conflicts of the parm sort's kernels (every variant run once at one
# size, all launches profiled), summed per kernel into OUTDIR/parm-ncu.md. It never fails its caller:
# no ncu, no python3, no permission for the counters or a timeout only skip it.
#   usage: cuda/ncu_parm.sh MMSIM OUTDIR [LOG2_N, default 12: the smallest the kernels take; every
#   variant's launches are profiled, about 700 at 2^12]
MMSIM=$1
OUT=$2
BITS=${3:-12}
# shellcheck source=ncu_lib.sh
source "$(dirname "$0")/ncu_lib.sh"
find_ncu
if [ -z "$NCU" ] || ! command -v python3 >/dev/null; then
  echo "ncu_parm.sh: no Nsight Compute (ncu) or no python3 here; counters skipped" >&2
  exit 0
fi
G=lsu_mem_global_op
METRICS=l1tex__t_requests_pipe_${G}_ld.sum,l1tex__t_sectors_pipe_${G}_ld.sum,l1tex__t_requests_pipe_${G}_st.sum
METRICS=$METRICS,l1tex__t_sectors_pipe_${G}_st.sum
METRICS=$METRICS,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
rm -f "$OUT/ncu-parm.csv"
if ! timeout "${MMSIM_GPU_NCU_S:-180}" "$NCU" --clock-control none --csv --log-file "$OUT/ncu-parm.csv" \
  --metrics "$METRICS" -k "regex:k_naive|k_tiled|k_compare" "$MMSIM" gpu parm --ncu-launches --min-bits "$BITS" \
  --max-bits "$BITS" --out "$OUT" >/dev/null 2>"$OUT/ncu-parm.log"; then
  echo "ncu_parm.sh: ncu failed or timed out (see ncu-parm.log); counters skipped" >&2
  exit 0
fi
# ncu's own notes (==PROF==, ==WARNING==) precede the CSV's header: dropped.
sed -i '/^==/d' "$OUT/ncu-parm.csv"
python3 - "$OUT/ncu-parm.csv" "$BITS" >"$OUT/parm-ncu.md" <<'PY' || echo "ncu_parm.sh: could not read ncu's output" >&2
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
launches, sums = collections.Counter(), collections.defaultdict(collections.Counter)
seen = set()
for r in rows:
    k = r["Kernel Name"].split("(")[0].replace("mmsim::gpu::bmmc::", "").replace("<unnamed>::", "")
    if (r["ID"], k) not in seen:
        seen.add((r["ID"], k)); launches[k] += 1
    sums[k][r["Metric Name"]] += float(r["Metric Value"].replace(",", ""))
print("## Nsight Compute counters of the GPU parm sort, n = 2^%s (every variant once, summed per kernel)\n" % sys.argv[2])
print("| kernel | launches | ld sectors / request | st sectors / request | shared ld bank conflicts | shared st bank conflicts |")
print("|---|---|---|---|---|---|")
for k in sorted(launches):
    s = sums[k]
    get = lambda part: sum(v for n, v in s.items() if part in n)
    ratio = lambda a, b: "%.2f" % (get(a) / get(b)) if get(b) else "-"
    print("| %s | %d | %s | %s | %d | %d |" % (k, launches[k],
          ratio("sectors_pipe_lsu_mem_global_op_ld", "requests_pipe_lsu_mem_global_op_ld"),
          ratio("sectors_pipe_lsu_mem_global_op_st", "requests_pipe_lsu_mem_global_op_st"),
          get("shared_op_ld"), get("shared_op_st")))
print("\nA request is one warp's load or store instruction; 4 sectors of 32 bytes serve 32 consecutive 4-byte "
      "cells, 8 serve the compare column's 8-byte pairs. The simulator's counterpart: the BMMC kernels' "
      "`mmsim table bmmc-optimisations` (bank conflicts of tile vs tile-banks, global transactions per warp access).")
PY
exit 0
