#!/usr/bin/env bash
# `mmsim replay TRACE`: traced runs made on the host (the trace_file fuzz corpus, written as
# include/mmsim/trace.cuh writes them) replayed per source line with exact counts, as a table and as
# JSON; priced with a profile, sampled and with --exact; then bad traces and options: one line,
# status 2.
mmsim=$1
traces=$2
profile=$3
source "$(dirname "$0")/cli_lib.sh"

# The padded tiled transpose (one block of 32 x 4 threads, 32 x 33 tile): line 14 reads the tile's
# columns, 8 iterations x 4 warps, one slot each; line 10 writes its rows, as conflict-free.
ok "$mmsim" replay "$traces/tiled33" --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
lines = {(l["line"], l["array"], l["op"]): l for l in r["lines"]}
assert [l["line"] for l in r["lines"]] == ["transpose_tiled.cu:10"] * 2 + ["transpose_tiled.cu:14"] * 2, r["lines"]
col = lines[("transpose_tiled.cu:14", "tile", "read")]
assert (col["steps"], col["warps"], col["slots"], col["bank_conflicts"], col["max_slots_of_a_warp"]) == (8, 32, 32, 0, 1), col
row = lines[("transpose_tiled.cu:10", "tile", "write")]
assert (row["slots"], row["bank_conflicts"], row["requests"]) == (32, 0, 1024), row
assert lines[("transpose_tiled.cu:10", "in", "read")]["bank_conflicts"] is None
PY
ok "$mmsim" replay "$traces/tiled33"
grep -q "transpose_tiled.cu:14" "$tmp/out" || { echo "FAIL: the table names no line 14"; cat "$tmp/out"; fail=1; }

# The histogram: the shared atomic of line 6 through a table of keys with repeats.
ok "$mmsim" replay "$traces/histogram" --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
atomic = [l for l in r["lines"] if l["line"] == "k.cu:6"]
assert len(atomic) == 1 and atomic[0]["op"] == "atomic" and atomic[0]["requests"] == 64, atomic
PY

# Priced with a profile: sampled by default (a trace this small fits the budget: the whole run, the
# exact prediction), every sector with --exact; the sampling options need --profile.
ok "$mmsim" replay "$traces/tiled33" --profile "$profile" --json
cp "$tmp/out" "$tmp/sampled.json"
ok "$mmsim" replay "$traces/tiled33" --profile "$profile" --json --exact
python3 - "$tmp/sampled.json" "$tmp/out" "$profile" <<'PY' || fail=1
import json, sys
s, e = (json.load(open(f)) for f in sys.argv[1:3])
assert s["sampling"]["exact"] is False and s["sampling"]["fraction"] == 1, s["sampling"]
assert e["sampling"]["exact"] is True and e["predicted_ms_ci95"] == 0, e["sampling"]
assert s["predicted_ms"] == e["predicted_ms"] and s["lines"] == e["lines"]
# The interval the profile's cross-validation gives, around the prediction, at least the model's own.
lo, hi = s["interval_ms"]
profile = json.load(open(sys.argv[3]))
factor = next(m["interval_factor"] for m in profile["model_choice"]["models"] if m["model"] == s["model"])
assert s["interval_coverage"] == 0.8 and lo < s["predicted_ms"] < hi, (lo, hi, s["predicted_ms"])
assert hi / s["predicted_ms"] >= factor * (1 - 1e-9) and s["predicted_ms"] / lo >= factor * (1 - 1e-9), (lo, hi, factor)
PY
ok "$mmsim" replay "$traces/tiled33" --profile "$profile"
grep -qF "every DRAM row simulated (the run fits the sample budget)" "$tmp/out" ||
  { echo "FAIL: replay's text says nothing of the sampling"; cat "$tmp/out"; fail=1; }
grep -q "(interval [0-9.e-]* - [0-9.e-]* ms)" "$tmp/out" || { echo "FAIL: replay's text gives no interval"; cat "$tmp/out"; fail=1; }
bad "$mmsim" replay "$traces/tiled33" --exact
grep -qF "replay: --exact samples a prediction, with --profile only" "$tmp/err" || { cat "$tmp/err"; fail=1; }
bad "$mmsim" replay "$traces/tiled33" --sample-seed 4

# Bad traces and options: one line naming the file, the place and the rule.
bad "$mmsim" replay "$traces/dropped"
grep -q "dropped 5 records" "$tmp/err" || { echo "FAIL: a full buffer's trace"; cat "$tmp/err"; fail=1; }
head -c 100 "$traces/tiled33" >"$tmp/short"
bad "$mmsim" replay "$tmp/short"
printf 'not a trace at all, but long enough to hold a header of fifty-six bytes........' >"$tmp/text"
bad "$mmsim" replay "$tmp/text"
grep -q "not an mmsim trace" "$tmp/err" || { echo "FAIL: a text file"; cat "$tmp/err"; fail=1; }
bad "$mmsim" replay "$tmp/nowhere"
bad "$mmsim" replay "$traces/tiled33" --model papers
exit $fail
