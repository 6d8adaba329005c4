#!/usr/bin/env bash
# Regenerates the validation tables of both GPUs from the committed measured tables and profiles,
# on a CPU host (no GPU needed): every family up to 2^24 (validate*), the parm network up to 2^20
# (validate-parm*), the KNI runs at 2^26 and 2^28 (validate-n67108864*, validate-n268435456*, their
# counts files), and then docs/prediction.md's tables, which the test docs_prediction_tables holds
# equal to `mmsim validate --tables`.
#   scripts/regen_validation.sh MMSIM PART [THREADS]
# MMSIM is the mmsim binary (a Release build); THREADS the host threads (default 16). Run from
# anywhere; the files written are in this checkout. Each PART is one call that fits a ~9-minute
# limit on a 16-core host with 128 GiB; each keeps its runs in a counts file as they end, so a part
# stopped by a limit goes on where it stopped when run again (its finished runs are reused).
#   small-h100, small-h200 every family's rows 2^20..2^24 (validate*; the KNI and parm runs
#                          reused from validate-counts.csv, the others simulated; the H200's A-S
#                          rows priced with the H100's instruction files)
#   parm-h100, parm-h200  the parm rows 2^12..2^20 (2^17..2^20 simulated, sampled; the smaller
#                          ones reused from validate-parm-counts.csv)
#   n26-h100, n26-h200    the KNI rows at 2^26 (the runs counts-n67108864.csv lacks simulated,
#                          sampled; the others reused)
#   n28-h100, n28-h200    the KNI rows at 2^28 (the runs counts-n268435456.csv lacks simulated,
#                          sampled; the others reused)
#   tables                docs/prediction.md's tables from the CSVs the parts above wrote
# docs/prediction.md ("Large validations") says what each part simulates and how long it takes.
set -euo pipefail

usage() {
  echo "usage: $0 MMSIM small-h100|small-h200|parm-h100|parm-h200|n26-h100|n26-h200|n28-h100|n28-h200|tables [THREADS]" >&2
  exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
mmsim=$1 part=$2 threads=${3:-16}
[ -x "$mmsim" ] || { echo "$0: $mmsim is not an executable (the mmsim binary of a build)" >&2; exit 2; }
mmsim=$(cd "$(dirname "$mmsim")" && pwd)/$(basename "$mmsim")
cd "$(dirname "$0")/.."

# validate_gpu GPU NAME COUNTS ARGS...: one GPU's validation, its runs kept in COUNTS, its tables
# written into results/gpu-GPU as NAME.{md,csv} and NAME-summary.{md,csv}.
validate_gpu() {
  local gpu=$1 name=$2 counts=$3
  shift 3
  "$mmsim" validate --profile "results/gpu-$gpu/profile-$gpu.json" --measured "results/gpu-$gpu" \
    --threads "$threads" --counts "results/gpu-$gpu/$counts" --out "results/gpu-$gpu" --name "$name" "$@" >/dev/null
}

case $part in
  small-h100)
    validate_gpu h100 validate validate-counts.csv --max-n 16777216
    ;;
  small-h200)
    validate_gpu h200 validate validate-counts.csv --max-n 16777216 --instructions-from results/gpu-h100
    ;;
  parm-h100 | parm-h200)
    validate_gpu "${part#parm-}" validate-parm validate-parm-counts.csv --families parm --min-n 4096 --max-n 1048576
    ;;
  n26-h100 | n26-h200)
    validate_gpu "${part#n26-}" validate-n67108864 counts-n67108864.csv --families kni \
      --min-n 67108864 --max-n 67108864
    ;;
  n28-h100 | n28-h200)
    validate_gpu "${part#n28-}" validate-n268435456 counts-n268435456.csv --families kni \
      --min-n 268435456 --max-n 268435456
    ;;
  tables)
    tables=$(mktemp)
    trap 'rm -f "$tables"' EXIT
    "$mmsim" validate --tables results/gpu-h100 results/gpu-h200 >"$tables"
    # Each table between its markers replaces the document's block of the same name.
    python3 - "$tables" docs/prediction.md <<'EOF'
import re, sys
tables = open(sys.argv[1]).read()
doc_path = sys.argv[2]
doc = open(doc_path).read()
for m in re.finditer(r"<!-- prediction table (\w+): .*?<!-- end of prediction table \1 -->\n", tables, re.S):
    name = m.group(1)
    block = re.compile(r"<!-- prediction table " + name + r": .*?<!-- end of prediction table " + name + r" -->\n", re.S)
    if not block.search(doc):
        sys.exit(f"regen_validation.sh: docs/prediction.md has no table {name}")
    doc = block.sub(lambda _: m.group(0), doc, count=1)
open(doc_path, "w").write(doc)
EOF
    ;;
  *) usage ;;
esac
echo "$0: $part done" >&2
