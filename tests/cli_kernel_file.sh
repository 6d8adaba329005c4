#!/usr/bin/env bash
# `mmsim run --kernel FILE`: the examples' kernels run with every address computed by the simulated
# threads from data they loaded (the gather through idx, the histogram's bins from its keys), and
# their outputs are checked here, cell by cell, against the same computation done independently
# from the arrays' initial values the run reports. Then bad kernel files: one line, status 2.
mmsim=$1
examples=$2
source "$(dirname "$0")/cli_lib.sh"

# The gather: b[t] = a[idx[t]] for every t.
ok "$mmsim" run --kernel "$examples/gather.json" --json --arrays
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
idx, a, b = (r["arrays"][k] for k in ("idx", "a", "b"))
assert len(b) == 4096 and len(set(idx)) > 1000, "the example's arrays"
bad = [t for t in range(len(b)) if b[t] != a[idx[t]]]
assert not bad, "b[t] != a[idx[t]] at %s" % bad[:5]
steps = [s["step"] for s in r["steps"]]
assert steps == ["load the index", "gather a[index]", "store b[t]"], steps
# The gather reads scattered addresses: more slots than the coalesced index load.
assert r["steps"][1]["slots"] > r["steps"][0]["slots"], r["steps"]
PY

# The histogram: shared counts per block, then added to the global histogram.
ok "$mmsim" run --kernel "$examples/histogram.json" --json --arrays
python3 - "$tmp/out" <<'PY' || fail=1
import collections, json, sys
r = json.load(open(sys.argv[1]))
keys, hist = r["arrays"]["keys"], r["arrays"]["hist"]
want = collections.Counter(keys)
assert hist == [want.get(k, 0) for k in range(256)], "the histogram differs from the keys' counts"
assert sum(hist) == 8192
PY
ok "$mmsim" run --kernel "$examples/histogram.json"
grep -q "count it" "$tmp/out" || { echo "FAIL: the table names no step 'count it'"; cat "$tmp/out"; fail=1; }

# Bad files: each refused with one line naming the file, the place and the rule.
k() { printf '%s' "$1" >"$tmp/k.json"; }
k '{"arrays": [], "kernels": [], "extra": 1}'
bad "$mmsim" run --kernel "$tmp/k.json"
grep -q "unknown key .extra." "$tmp/err" || { echo "FAIL: unknown key"; cat "$tmp/err"; fail=1; }
k '{"arrays": [{"name": "a", "size": 4}], "kernels": [{"name": "k", "steps": [{"read": "a", "address": "t"}]}]}'
bad "$mmsim" run --kernel "$tmp/k.json"
grep -q 'kernel' "$tmp/err" || { echo "FAIL: address outside its array"; cat "$tmp/err"; fail=1; }
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "steps": [{"read": "b", "address": "t"}]}]}'
bad "$mmsim" run --kernel "$tmp/k.json"
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "steps": [{"read": "a", "address": "r3"}]}]}'
bad "$mmsim" run --kernel "$tmp/k.json"
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "registers": 2, "steps": [{"read": "a", "address": "2*t", "vector": 2}]}]}'
bad "$mmsim" run --kernel "$tmp/k.json"
k '{"arrays": [{"name": "a", "size": 64}], "kernels": [{"name": "k", "registers": 1, "register_names": ["i"], "steps": [{"read": "a", "address": "t"}]}]}'
bad "$mmsim" run --kernel "$tmp/k.json"
grep -q "name of the expression language" "$tmp/err" || { echo "FAIL: a register named i"; cat "$tmp/err"; fail=1; }
k 'not json'
bad "$mmsim" run --kernel "$tmp/k.json"
bad "$mmsim" run --kernel "$tmp/nowhere.json"
bad "$mmsim" run --kernel "$examples/gather.json" conventional
exit $fail
