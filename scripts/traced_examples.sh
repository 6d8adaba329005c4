#!/usr/bin/env bash
# The traced CUDA examples (examples/traced/) on this machine's GPU, against mmsim's prediction.
#   scripts/traced_examples.sh BUILD_DIR OUT_DIR [PROFILE]
# BUILD_DIR is a build with the CUDA backend (cmake -DMMSIM_CUDA=ON; the targets mmsim and
# traced_*). Each example times its kernel untraced and traced (cudaEvents, after a warm-up), checks
# its output and writes its trace; `mmsim replay` then simulates the trace per source line and,
# with PROFILE (a GPU profile, results/gpu-<device>/profile-<device>.json), predicts its time.
# Writes into OUT_DIR: NAME.mmtrace, NAME.out (the example's result line), NAME.lines.md (the
# simulator's per-line table), NAME.predicted.md and .json (with PROFILE), and traced.csv and
# traced.md: example, measured ms, predicted ms, error, trace bytes, bytes per record (one record a
# warp access), traced / untraced time. docs/traced-runs.md says what each column means.
set -euo pipefail

usage() { echo "usage: $0 BUILD_DIR OUT_DIR [PROFILE]" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
build=$1 out=$2 profile=${3:-}
examples="transpose_naive transpose_tiled32 transpose_tiled33 histogram stencil gather"
mmsim=$build/cli/mmsim
bin=$build/cuda/traced_examples
reps=${TRACED_REPS:-20}

[ -x "$mmsim" ] || { echo "$0: no $mmsim: build the target mmsim in $build first" >&2; exit 2; }
for e in $examples; do
  [ -x "$bin/$e" ] || { echo "$0: no $bin/$e: configure $build with -DMMSIM_CUDA=ON and build traced_$e" >&2; exit 2; }
done
if [ -n "$profile" ] && [ ! -f "$profile" ]; then echo "$0: no profile file $profile" >&2; exit 2; fi
mkdir -p "$out"

# field NAME LINE: the value of NAME=... in an example's result line.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

csv=$out/traced.csv
# Every row ends with what made it (docs/report.md): the timed runs, the profile (its file name) and
# the build, as `mmsim --version` prints it.
version=$("$mmsim" --version | sed -n 's/^mmsim //p') commit=$("$mmsim" --version | sed -n 's/^commit: //p')
made="$reps,${profile:+$(basename "$profile")},$version,$commit"
echo "example,measured_ms,traced_ms,predicted_ms,error,trace_bytes,records,bytes_per_record,traced_over_untraced,reps,profile,mmsim_version,mmsim_commit" >"$csv"
status=0
for e in $examples; do
  echo "== $e" >&2
  if ! "$bin/$e" "$out/$e.mmtrace" --reps "$reps" >"$out/$e.out"; then
    echo "$0: $e failed (its output or its trace; see $out/$e.out)" >&2
    status=1
  fi
  line=$(grep '^traced_example ' "$out/$e.out" || true)
  [ -n "$line" ] || { echo "$0: $e printed no result line" >&2; exit 1; }
  [ "$(field output "$line")" = ok ] || { echo "$0: $e computed a wrong result" >&2; status=1; }
  measured=$(field untraced_ms "$line") traced=$(field traced_ms "$line")
  bytes=$(field trace_bytes "$line") records=$(field records "$line") per=$(field bytes_per_record "$line")
  "$mmsim" replay "$out/$e.mmtrace" >"$out/$e.lines.md"
  predicted="" error=""
  if [ -n "$profile" ]; then
    "$mmsim" replay "$out/$e.mmtrace" --profile "$profile" >"$out/$e.predicted.md"
    "$mmsim" replay "$out/$e.mmtrace" --profile "$profile" --json >"$out/$e.predicted.json"
    predicted=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["predicted_ms"])' "$out/$e.predicted.json")
    error=$(python3 -c 'import sys; p, m = map(float, sys.argv[1:]); print(f"{(p - m) / m:+.3f}")' "$predicted" "$measured")
  fi
  ratio=$(python3 -c 'import sys; t, u = map(float, sys.argv[1:]); print(f"{t / u:.2f}")' "$traced" "$measured")
  echo "$e,$measured,$traced,$predicted,$error,$bytes,$records,$per,$ratio,$made" >>"$csv"
done

python3 - "$csv" "$out/traced.md" "${profile:-none}" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w") as f:
    f.write(f"# Traced examples: measured against predicted (profile: {sys.argv[3]})\n\n")
    f.write("| example | measured ms | predicted ms | error | trace bytes | bytes per record | traced / untraced |\n")
    f.write("|---|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        f.write(f"| {r['example']} | {float(r['measured_ms']):.4f} | {r['predicted_ms'] or '-'} | {r['error'] or '-'} "
                f"| {r['trace_bytes']} | {r['bytes_per_record']} | {r['traced_over_untraced']} |\n")
PY
echo "wrote $csv and $out/traced.md" >&2
exit $status
