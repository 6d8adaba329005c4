#!/usr/bin/env bash
# `mmsim predict --kernel FILE` and `mmsim trace --kernel FILE` (docs/your-kernel.md) with the H100's
# committed profile: the example kernels predicted per kernel and per step, the transposes' bank
# conflicts and sectors as worked out by hand, the JSON and the text agreeing, the JSON's counts the
# same as `mmsim predict`'s for a registry algorithm's keys; sampled by default and whole with
# --exact; then bad files and options, each one line and status 2.
mmsim=$1
profile=$2
examples=$3
source "$(dirname "$0")/../cli_lib.sh"

for f in transpose_naive transpose_tiled_32x32 transpose_tiled_32x33 histogram stencil_2d gather; do
  ok "$mmsim" predict --kernel "$examples/$f.json" --profile "$profile" --json --threads 2
  cp "$tmp/out" "$tmp/$f.json"
done
chosen=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["model_choice"]["chosen"])' "$profile")
python3 - "$tmp" "$chosen" "$profile" <<'PY' || fail=1
import json, sys
d, chosen = sys.argv[1], sys.argv[2]
models = {m["model"] for m in json.load(open(sys.argv[3]))["models"]}
p = {f: json.load(open("%s/%s.json" % (d, f))) for f in
     ("transpose_naive", "transpose_tiled_32x32", "transpose_tiled_32x33", "histogram", "stencil_2d", "gather")}
warps = 1024 * 1024 // 32
for f, r in p.items():
    assert r["model"] == chosen and r["predicted_ms"] > 0, f  # the profile's cross-validated choice
    assert set(r["predicted_ms_by_model"]) == models and len(models) >= 3, f  # every model of the profile
    assert abs(r["predicted_ms_by_model"][chosen] - r["predicted_ms"]) < 1e-12, f
    for k in r["kernels"]:
        total = k["launch_ms"] + sum(s["predicted_ms"] for s in k["steps"])
        assert abs(total - k["predicted_ms"]) < 1e-9 * total, (f, total, k["predicted_ms"])
# The naive transpose: reads of a row, 4 sectors a warp; writes of a column, 32 sectors a warp.
naive = p["transpose_naive"]["kernels"][0]["steps"]
assert naive[0]["sectors_per_request"] == 4.0 and naive[1]["sectors_per_request"] == 32.0, naive
assert naive[1]["counts"]["write_sectors"] == 32 * warps
# The tiles: 31 bank conflicts a warp reading a column of 32 x 32, none of 32 x 33.
t32, t33 = (p[f]["kernels"][0]["steps"] for f in ("transpose_tiled_32x32", "transpose_tiled_32x33"))
assert [s["bank_conflicts"] for s in t32] == [None, 0, 31 * warps, None], t32
assert [s["bank_conflicts"] for s in t33] == [None, 0, 0, None], t33
assert all(s["sectors_per_request"] == 4.0 for s in (t32[0], t32[3], t33[0], t33[3]))
assert t32[2]["congestion"] == 32 and t33[2]["congestion"] == 1
assert p["transpose_tiled_32x33"]["predicted_ms"] < p["transpose_tiled_32x32"]["predicted_ms"]
# The column writes of the naive transpose cost more than the tiled one's whole kernel.
assert p["transpose_naive"]["predicted_ms"] > p["transpose_tiled_32x33"]["predicted_ms"]
# The stencil's four neighbours and its centre read the same rows: the L2 serves most of them.
st = p["stencil_2d"]["kernels"][0]["steps"]
assert [s["step"] for s in st] == ["centre", "west", "east", "north", "south", "store b[t]"]
assert all(s["l2_hit_rate"] > 0.5 for s in st[1:5]), [s["l2_hit_rate"] for s in st]
PY

# The text: the kernels' table and the steps' table, with the same milliseconds as the JSON.
ok "$mmsim" predict --kernel "$examples/transpose_tiled_32x32.json" --profile "$profile" --threads 2
for want in "Predicted GPU time of" "Where the time goes" "load the tile by columns" "(launch)" "$chosen"; do
  grep -qF "$want" "$tmp/out" || { echo "FAIL: predict --kernel's text lacks $want"; cat "$tmp/out"; fail=1; }
done
ms=$(python3 -c "import json; print('%.4g' % json.load(open('$tmp/transpose_tiled_32x32.json'))['predicted_ms'])")
grep -qF "of $examples/transpose_tiled_32x32.json: $ms ms" "$tmp/out" ||
  { echo "FAIL: the text's ms is not the JSON's $ms"; head -3 "$tmp/out"; fail=1; }
ok "$mmsim" predict --kernel "$examples/gather.json" --profile "$profile" --model papers --json
grep -q '"model": "papers"' "$tmp/out" || { echo "FAIL: --model papers"; fail=1; }

# Sampled by default, as predict ALGORITHM is (predict/sampled.h): the naive transpose's 1.2 M sectors
# fit the default budget, so the sample is the whole run and its JSON the --exact one's but for
# "sampling"; with --sample-budget 1024 a 1/2^10 or smaller part of the rows is simulated, the
# coalescer's counts stay whole and each count and step carries its interval; one seed, one answer.
naive="$examples/transpose_naive.json"
ok "$mmsim" predict --kernel "$naive" --profile "$profile" --json --threads 2 --exact --sample-seed 7
cp "$tmp/out" "$tmp/exact.json"
cp "$tmp/transpose_naive.json" "$tmp/whole.json"
ok "$mmsim" predict --kernel "$naive" --profile "$profile" --json --threads 1 --sample-budget 1024 --sample-seed 3
cp "$tmp/out" "$tmp/small.json"
ok "$mmsim" predict --kernel "$naive" --profile "$profile" --json --threads 2 --sample-budget 1024 --sample-seed 3
cmp -s "$tmp/out" "$tmp/small.json" || { echo "FAIL: one seed, two answers (threads 1 and 2)"; fail=1; }
python3 - "$tmp" <<'PY' || fail=1
import json, sys
d = sys.argv[1]
exact, whole, small = (json.load(open("%s/%s.json" % (d, f))) for f in ("exact", "whole", "small"))
assert exact["sampling"]["exact"] is True and exact["sampling"]["fraction"] == 1, exact["sampling"]
assert exact["sampling"]["seed"] == 7, "--exact's JSON does not name the seed given"
assert whole["sampling"]["exact"] is False and whole["sampling"]["fraction"] == 1, whole["sampling"]
assert whole["sampling"]["recorded_sectors"] == exact["counts"]["read_sectors"] + exact["counts"]["write_sectors"]
for r in (exact, whole):
    assert r["predicted_ms_ci95"] == 0 and set(r["counts_ci95"].values()) == {0}, r["counts_ci95"]
del whole["sampling"], exact["sampling"]
assert whole == exact, "a run within the budget is not the exact one"
s = small["sampling"]
assert s["exact"] is False and s["budget"] == 1024 and s["seed"] == 3, s
assert s["fraction"] <= 2 ** -10 and 0 < s["recorded_sectors"] <= 1024, s
for key in ("accesses", "umm_slots", "l2_transactions", "read_sectors", "write_sectors", "launches"):
    assert small["counts"][key] == exact["counts"][key], key
assert small["counts_ci95"]["l2_hits"] > 0, small["counts_ci95"]
# A thousandth of the rows still prices the run near the exact simulation (the naive transpose's
# columns open a row per sector, the same in every part of the memory).
assert abs(small["predicted_ms"] / exact["predicted_ms"] - 1) < 0.05, (small["predicted_ms"], exact["predicted_ms"])
for k in small["kernels"]:
    assert all(st["predicted_ms_ci95"] > 0 for st in k["steps"]), k["steps"]
PY
# The text says how much was simulated, and gives the interval beside the ms and for each step.
ok "$mmsim" predict --kernel "$naive" --profile "$profile" --threads 2 --sample-budget 1024
for want in "ms  +- " "ms (95 % sampling)" "the L2 and DRAM of 1/" "predicted_ms_ci95" "--exact simulates every sector"; do
  grep -qF -- "$want" "$tmp/out" || { echo "FAIL: sampled predict --kernel lacks $want"; cat "$tmp/out"; fail=1; }
done
ok "$mmsim" predict --kernel "$naive" --profile "$profile" --threads 2 --exact
for unwanted in "+-" "sampling" "sampled" "predicted_ms_ci95"; do
  if grep -qF -- "$unwanted" "$tmp/out"; then echo "FAIL: --exact's text has $unwanted"; cat "$tmp/out"; fail=1; fi
done
bad "$mmsim" predict --kernel "$naive" --profile "$profile" --sample-budget 5
grep -qF -- "--sample-budget" "$tmp/err" || { echo "FAIL: --sample-budget 5"; cat "$tmp/err"; fail=1; }

# trace --kernel: the pipelines of the file's run, as `mmsim trace` draws a run's trace CSV.
ok "$mmsim" trace --kernel "$examples/gather.json" --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
assert r["slots"] > 0 and len(r["rounds"]) == 3, r.keys()
PY
ok "$mmsim" run --kernel "$examples/gather.json" --json
tu=$(python3 -c "import json; print(json.load(open('$tmp/out'))['time_units'])")
ok "$mmsim" trace --kernel "$examples/gather.json" --json
python3 -c "import json, sys; sys.exit(json.load(open('$tmp/out'))['time_units'] != $tu)" ||
  { echo "FAIL: trace --kernel's time units are not run --kernel's $tu"; fail=1; }
ok "$mmsim" trace --kernel "$examples/histogram.json" --svg "$tmp/h.svg"
grep -q "<svg" "$tmp/h.svg" || { echo "FAIL: trace --kernel --svg"; fail=1; }

# Declared instructions (docs/your-kernel.md, "Instructions"): the polynomial's 128 a step, priced
# by the instruction term that fit-instructions fits on the GPU folder's microbenchmarks into a
# copy of the profile; each kernel its launch plus the larger of its memory steps and its
# instructions, the same under every model; without a term, the memory alone and a note.
gpu_dir=$(dirname "$profile")
ok "$mmsim" fit-instructions "$gpu_dir" --profile "$profile" --out "$tmp/term.json"
grep -q "32 warps per SM" "$tmp/out" || { echo "FAIL: fit-instructions printed no fit"; cat "$tmp/out"; fail=1; }
ok "$mmsim" predict --kernel "$examples/polynomial.json" --profile "$tmp/term.json" --json --threads 2
cp "$tmp/out" "$tmp/poly-term.json"
ok "$mmsim" predict --kernel "$examples/polynomial.json" --profile "$tmp/term.json" --threads 2
grep -q "instruction_ms" "$tmp/out" || { echo "FAIL: the kernels' table has no instruction_ms"; cat "$tmp/out"; fail=1; }
python3 - "$tmp/term.json" "$profile" <<'PY' || fail=1
import json, sys
term, plain = (json.load(open(f)) for f in sys.argv[1:])
assert "instruction_term" in term and term["instruction_term"]["many"]["form"] in ("additive", "bound")
del term["instruction_term"]
plain.pop("instruction_term", None)
assert term["models"] == plain["models"], "fit-instructions changed the models"
PY
python3 - "$tmp/term.json" "$profile" >"$tmp/noterm.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[2]))
p.pop("instruction_term", None)
print(json.dumps(p))
PY
ok "$mmsim" predict --kernel "$examples/polynomial.json" --profile "$tmp/noterm.json" --json --threads 2
python3 - "$tmp/poly-term.json" "$tmp/out" <<'PY' || fail=1
import json, sys
p, q = (json.load(open(f)) for f in sys.argv[1:])
k = p["kernels"][0]
assert k["warp_instructions"] == 130, k["warp_instructions"]  # 128 declared, a read and a write
assert k["instruction_ms"] > k["memory_ms"] > 0, k  # 2^17 warps of 130 instructions: issue-bound
want = k["launch_ms"] + max(k["memory_ms"], k["instruction_ms"])
close = lambda x, y: abs(x - y) <= 1e-9 * abs(y)  # the JSON prints 10 digits
assert close(k["predicted_ms"], want) and close(p["predicted_ms"], want), (k, p["predicted_ms"])
assert close(p["predicted_ms_by_model"][p["model"]], p["predicted_ms"])
assert "instruction term" in p["instructions"]
# Without a term: the same memory steps, the instructions not priced, and said so.
kq = q["kernels"][0]
assert kq["instruction_ms"] is None and "no instruction term" in q["instructions"], q["instructions"]
assert close(kq["predicted_ms"], k["launch_ms"] + k["memory_ms"])
PY

# Refusals: one line naming the file, the kernel, the step or the rule; status 2.
k() { printf '%s' "$1" >"$tmp/k.json"; }
refused() {  # refused WORDS ARGS...: status 2, one line holding WORDS
  local words=$1
  shift
  bad "$@"
  grep -qF -- "$words" "$tmp/err" || { echo "FAIL: '$words' not in:"; cat "$tmp/err"; fail=1; }
}
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "threads_per_block": 128, "steps": [{"read": "a", "address": "t", "name": "past"}]}]}'
refused "k.json: kernel k step 0 (past): thread 64 addresses 64 outside a[64]" \
  "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k '{"machine": {"w": 16}, "arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "steps": [{"read": "a", "address": "t"}]}]}'
refused "k.json: machine: w = 16, but the profile's GPU runs warps of w = 32 threads" \
  "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k '{"machine": {"model": "dmm"}, "arrays": [{"name": "a", "space": "shared", "size": 64}], "kernels": [{"name": "k", "steps": [{"read": "a", "address": "t"}]}]}'
refused "k.json: machine: a GPU prediction runs on the HMM" "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k '{"arrays": [{"name": "a", "size": 4096}], "kernels": [{"name": "wide", "threads_per_block": 2048, "steps": [{"read": "a", "address": "t"}]}]}'
refused "k.json: kernel 'wide': threads_per_block = 2048, more than the 1024 threads of a CUDA block" \
  "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k '{"arrays": [{"name": "s", "space": "shared", "size": 65536}], "kernels": [{"name": "k", "steps": [{"read": "s", "address": "t"}]}]}'
refused "k.json: arrays: the shared arrays take 262144 bytes a block" \
  "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "steps": [{"read": "a", "address": "t / 0", "name": "div"}]}]}'
refused "k.json: kernel 'k', step 0 (div)" "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k '{"arrays": [{"name": "a", "size": 4294967296}], "kernels": []}'
refused "k.json: array 'a': size must be an integer in" "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "steps": [{"read": "a", "address": "t", "oops": 1}]}]}'
refused "k.json: kernel 'k', step 0: unknown key 'oops'" "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
k 'not json'
refused "k.json: not JSON" "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
refused "--kernel needs --profile" "$mmsim" predict --kernel "$examples/gather.json"
refused "--model" "$mmsim" predict --kernel "$examples/gather.json" --profile "$profile" --model nope
refused "--profile" "$mmsim" predict --kernel "$examples/gather.json" --profile "$tmp/none.json"
refused "--kernel" "$mmsim" predict --kernel "$tmp/none.json" --profile "$profile"
refused "predict: --kernel predicts a kernel file alone" "$mmsim" predict --kernel "$examples/gather.json" --profile "$profile" extra
refused "trace: give a trace CSV or --kernel FILE, one of them" "$mmsim" trace
refused "trace: give a trace CSV or --kernel FILE, one of them" "$mmsim" trace "$tmp/x.csv" --kernel "$examples/gather.json"
refused "k.json" "$mmsim" trace --kernel "$tmp/k.json"
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "steps": [{"read": "a", "address": "t", "instructions": -1}]}]}'
refused "k.json: kernel 'k', step 0: instructions must be an integer in [0, 1048576]" \
  "$mmsim" predict --kernel "$tmp/k.json" --profile "$profile"
mkdir -p "$tmp/empty"
refused "instructions.csv' is missing" "$mmsim" fit-instructions "$tmp/empty" --profile "$profile" --out "$tmp/x.json"
refused "DIR: '$tmp/nowhere' is not a folder" "$mmsim" fit-instructions "$tmp/nowhere" --profile "$profile"
refused "--profile: " "$mmsim" fit-instructions "$gpu_dir" --profile "$tmp/nowhere.json"
exit $fail
