#!/usr/bin/env bash
# mmsim predict and mmsim validate from the command line, with a committed profile (an H100's, from
# mmsim gpu calibrate) and no GPU: a prediction's JSON, its agreement with the text, the runs
# validate simulates, and one line and status 2 for each bad input.
mmsim=$1
profile=$2
source "$(dirname "$0")/../cli_lib.sh"

ok "$mmsim" predict d-designated -n 4096 --perm random --profile "$profile" --json
json=$(cat "$tmp/out")
chosen=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["model_choice"]["chosen"])' "$profile")
for key in '"algorithm": "d-designated"' '"predicted_ms":' '"dram_reads":' '"correct": true' "\"model\": \"$chosen\"" \
  '"interval_ms": [' '"interval_coverage": 0.8'; do
  grep -qF "$key" <<<"$json" || { echo "FAIL: predict --json lacks $key"; fail=1; }
done
# The text prints the same figure as the JSON.
ms=$(grep -o '"predicted_ms": [0-9.e+-]*' <<<"$json" | head -1 | awk '{print $2}')
ok "$mmsim" predict d-designated -n 4096 --perm random --profile "$profile"
text=$(awk '/^predicted_ms/ {print $2}' "$tmp/out")
python3 -c "import sys; a, b = float('$ms'), float('$text'); sys.exit(0 if abs(a - b) <= 1e-3 * a else 1)" ||
  { echo "FAIL: predict text $text and JSON $ms differ"; fail=1; }
# The interval is the prediction divided and multiplied by the chosen model's recorded factor.
python3 - "$profile" "$text" "$(awk '/^interval_ms/ {print $2, $3}' "$tmp/out")" <<'PY' || { echo "FAIL: the interval is not the profile's"; fail=1; }
import json, sys
p = json.load(open(sys.argv[1]))["model_choice"]
f = next(m["interval_factor"] for m in p["models"] if m["model"] == p["chosen"])
ms, (lo, hi) = float(sys.argv[2]), map(float, sys.argv[3].split())
assert f > 1 and abs(lo - ms / f) <= 1e-3 * lo and abs(hi - ms * f) <= 1e-3 * hi, (ms, lo, hi, f)
PY
# A double costs more sectors than a float on a scattered permutation's coalesced reads.
ok "$mmsim" predict s-designated -n 65536 --perm random --profile "$profile" --type double --json
grep -q '"type": "double"' "$tmp/out" || { echo "FAIL: --type double not reported"; fail=1; }

bad "$mmsim" predict d-designated -n 4096 --profile "$tmp/none.json"
bad "$mmsim" predict d-designated -n 4096 --profile "$profile" --model nope
bad "$mmsim" predict d-designated -n 4096 --profile "$profile" --type half
bad "$mmsim" predict d-designated -n 4096
bad "$mmsim" predict crsw --profile "$profile"
bad "$mmsim" predict d-designated -n 4096 -w 16 --profile "$profile"
echo '{"device": "x"}' >"$tmp/broken.json"
bad "$mmsim" predict d-designated -n 4096 --profile "$tmp/broken.json"

# rows_correct CSV: how many rows of a per-run table were simulated and checked correct.
rows_correct() {
  python3 -c 'import csv, sys; print(sum(r["correct"] == "yes" for r in csv.DictReader(open(sys.argv[1]))))' "$1"
}
# validate over a small measured table (the format mmsim gpu reproduce writes).
mkdir -p "$tmp/measured"
cat >"$tmp/measured/kasagi-t2.csv" <<'CSV'
type,sqrt_n,permutation,algorithm,ms,ratio_to_d_identical,percent_of_copy,gb_per_s,correct,gtx_680_ratio_paper
float,64,identical,d-designated,0.005,1,100,1,yes,
float,64,random,s-designated,0.006,1,100,1,yes,
float,64,transpose,in-place,0.005,1,100,1,yes,
float,64,random,scheduled-fused,0.02,1,100,1,yes,
double,64,random,s-designated,0.006,1,100,1,yes,
CSV
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --min-n 1 --threads 2 --format csv
rows=$(grep -c '^conventional\|^in-place\|^scheduled\|^all' "$tmp/out")
[ "$rows" -ge 4 ] || { echo "FAIL: validate summary has $rows rows"; cat "$tmp/out"; fail=1; }
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --min-n 1 --threads 2 --out "$tmp/v"
for f in validate.md validate.csv validate-summary.md validate-summary.csv validate-counts.csv; do
  [ -s "$tmp/v/$f" ] || { echo "FAIL: validate --out did not write $f"; fail=1; }
done
# Only the models the profile holds are priced: the ones a calibration fits, each with its ms, its
# error and its interval, in the profile's order.
python3 - "$profile" "$tmp/v/validate.csv" <<'PY' || { echo "FAIL: validate.csv's columns"; head -1 "$tmp/v/validate.csv"; fail=1; }
import json, sys
models = [m["model"].replace("-", "_") for m in json.load(open(sys.argv[1]))["models"]]
assert len(models) >= 3, models
want = ("family,kernel,permutation,type,n,measured_ms,simulated,"
        + "".join(f"{m}_ms,{m}_error," for m in models) + "model_known_to_fail,correct,sample_fraction,"
        + "".join(f"{m}_ms_ci95," for m in models)
        + "interval_factor,device,profile_date,w,l,L,k,sector_bytes,cache_bytes,mmsim_version,mmsim_commit")
got = open(sys.argv[2]).readline().strip()
assert got == want, (got, want)
PY
# --name: another stem for the same files.
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --min-n 1 --out "$tmp/v" --name other
for f in other.md other.csv other-summary.md other-summary.csv other-counts.csv; do
  [ -s "$tmp/v/$f" ] || { echo "FAIL: validate --out --name other did not write $f"; fail=1; }
done
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --min-n 1 --out "$tmp/v" --name a/b
# The profile's microbenchmarks priced by each of its models, from the counts it records.
ok "$mmsim" validate --profile "$profile" --microbenchmarks --format csv
head -1 "$tmp/out" | grep -q '^bench,element_bytes,n,mib,measured_ms,papers_ms,papers_per_measured,dram_rows_ms' ||
  { echo "FAIL: --microbenchmarks' columns"; head -1 "$tmp/out"; fail=1; }
[ "$(grep -c '^write-random,4,' "$tmp/out")" -ge 5 ] || { echo "FAIL: --microbenchmarks lacks write-random"; fail=1; }
grep -q '^scheduled,scheduled-fused,random,float,4096,0.02,scheduled-fused,' "$tmp/v/validate.csv" ||
  { echo "FAIL: the fused kernel is not simulated as scheduled-fused"; fail=1; }
[ "$(rows_correct "$tmp/v/validate.csv")" = 4 ] || { echo "FAIL: not 4 float rows simulated and correct"; fail=1; }
# A counts file: written with every simulated run, then reused without simulating (the same
# table); one with a counter this build lacks is refused, never read as zeros.
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --min-n 1 --threads 2 --counts "$tmp/c.csv" \
  --out "$tmp/withcounts"
cp "$tmp/out" "$tmp/simulated"
[ -e "$tmp/withcounts/validate-counts.csv" ] && { echo "FAIL: --out copied the counts that --counts keeps"; fail=1; }
grep -q 'run 4 of 4: .* started' "$tmp/err" || { echo "FAIL: no progress line per run"; cat "$tmp/err"; fail=1; }
[ "$(wc -l <"$tmp/c.csv")" = 5 ] || { echo "FAIL: the counts file lacks a run"; cat "$tmp/c.csv"; fail=1; }
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --min-n 1 --threads 2 --counts "$tmp/c.csv"
cmp -s "$tmp/out" "$tmp/simulated" || { echo "FAIL: counts reused give another table"; fail=1; }
if grep -q 'started' "$tmp/err"; then echo "FAIL: runs in the counts file simulated again"; cat "$tmp/err"; fail=1; fi
# --counts-only prices what the file holds and simulates nothing: with one run taken out, that run's
# row says so and the others keep their figures.
sed '$d' "$tmp/c.csv" >"$tmp/c-part.csv"
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --min-n 1 --counts "$tmp/c-part.csv" \
  --counts-only --format csv --out "$tmp/p"
if grep -q 'started' "$tmp/err"; then echo "FAIL: --counts-only simulated a run"; cat "$tmp/err"; fail=1; fi
[ "$(grep -c 'not in the counts file' "$tmp/p/validate.csv")" = 1 ] || { echo "FAIL: the missing run is not marked"; fail=1; }
[ "$(rows_correct "$tmp/p/validate.csv")" = 3 ] || { echo "FAIL: not 3 runs priced from the file"; fail=1; }
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --counts-only
# Sampling: runs within the budget are whole (fraction 1, no interval); with a budget below a run's
# sectors, the fraction is below 1 and each model's ci95 set; the counts file records the sampling,
# and --exact simulates a sampled row again rather than reuse it.
python3 - "$tmp/v/validate.csv" <<'PY' || { echo "FAIL: validate's whole runs are not fraction 1, ci95 0"; fail=1; }
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["correct"] == "yes"]
assert rows and all(float(r["sample_fraction"]) == 1 and float(r["rmw_rows_ms_ci95"]) == 0 for r in rows), rows
PY
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --min-n 1 --threads 2 \
  --sample-budget 1024 --sample-seed 7 --counts "$tmp/sampled.csv" --out "$tmp/s"
python3 - "$tmp/s/validate.csv" "$tmp/sampled.csv" <<'PY' || { echo "FAIL: validate --sample-budget 1024 sampled no run"; fail=1; }
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["correct"] == "yes"]
sampled = [r for r in rows if float(r["sample_fraction"]) < 1]
assert sampled and all(float(r["dram_rows_ms_ci95"]) >= 0 for r in sampled), rows
counts = list(csv.DictReader(open(sys.argv[2])))
assert any(int(c["sample_shift"]) > 0 and c["sample_seed"] == "7" for c in counts), counts
PY
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --min-n 1 --threads 2 --exact \
  --counts "$tmp/sampled.csv"
grep -q 'started' "$tmp/err" || { echo "FAIL: --exact reused a sampled row"; cat "$tmp/err"; fail=1; }
python3 - "$tmp/sampled.csv" <<'PY' || { echo "FAIL: --exact did not write its rows back exact"; fail=1; }
import csv, sys
assert all(c["sample_shift"] == "0" for c in csv.DictReader(open(sys.argv[1])))
PY
# The sampling options' bad values, on predict and validate alike: one line, status 2.
for cmd in "predict d-designated -n 4096" "validate --measured $tmp/measured --families kni"; do
  bad "$mmsim" $cmd --profile "$profile" --sample-budget 1000
  bad "$mmsim" $cmd --profile "$profile" --sample-budget x
  bad "$mmsim" $cmd --profile "$profile" --sample-budget 2147483648
  bad "$mmsim" $cmd --profile "$profile" --sample-seed -1
  bad "$mmsim" $cmd --profile "$profile" --sample-seed 1.5
  bad "$mmsim" $cmd --profile "$profile" --exact=maybe
done
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --counts-only --counts "$tmp/none.csv"
# A file written before the read-modify-write rows were counted: rows whose write-backs merge no
# fill (or all) imply them and are reused; one that implies nothing is left out, said so on stderr,
# and simulated again, to the same table.
python3 - "$tmp/c.csv" "$tmp/c-old.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
drop = {"dram_rmw_activations"}
head = [h for h in rows[0] if h not in drop]
rows[-1]["dram_writes"], rows[-1]["dram_fills"] = "2", "1"
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, head, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
ok "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --min-n 1 --threads 2 --counts "$tmp/c-old.csv"
cmp -s "$tmp/out" "$tmp/simulated" || { echo "FAIL: an old counts file gives another table"; fail=1; }
grep -q '1 rows lack the rows opened by merged write-backs' "$tmp/err" || { echo "FAIL: the row left out is not said"; cat "$tmp/err"; fail=1; }
[ "$(grep -c 'started' "$tmp/err")" = 1 ] || { echo "FAIL: not exactly the row left out simulated again"; cat "$tmp/err"; fail=1; }
grep -q 'dram_rmw_activations' "$tmp/c-old.csv" || { echo "FAIL: the counts file is not written back with the new columns"; fail=1; }
# A profile fitted before rmw-rows existed: the default model is refused before simulating, with the
# way out named; a model the profile has still predicts.
python3 - "$profile" "$tmp/old-profile.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["models"] = [m for m in p["models"] if m["model"] != "rmw-rows"]
p.pop("model_choice", None)
json.dump(p, open(sys.argv[2], "w"))
PY
bad "$mmsim" predict d-designated -n 4096 --profile "$tmp/old-profile.json"
grep -q 'validate --refit' "$tmp/err" || { echo "FAIL: the old profile's error does not say how to refit"; cat "$tmp/err"; fail=1; }
ok "$mmsim" predict d-designated -n 4096 --profile "$tmp/old-profile.json" --model dram-rows
# --microbenchmarks on a profile written before its microbenchmarks' counts were all recorded: said so.
python3 - "$profile" "$tmp/no-counts.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for b in p["microbenchmarks"]:
    b["counts"].pop("l2_transactions", None)
json.dump(p, open(sys.argv[2], "w"))
PY
bad "$mmsim" validate --profile "$tmp/no-counts.json" --microbenchmarks
sed '1s/$/,rmw_writebacks/; 2,$s/$/,0/' "$tmp/c.csv" >"$tmp/c-new.csv"
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --min-n 1 --counts "$tmp/c-new.csv"
# A FIFO given as a counts file, a profile or a measured table is refused, not waited on.
mkfifo "$tmp/fifo"
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni --counts "$tmp/fifo"
bad "$mmsim" predict d-designated -n 4096 --profile "$tmp/fifo"
mkdir "$tmp/fifo-table" && mkfifo "$tmp/fifo-table/kasagi-t2.csv"
bad "$mmsim" validate --profile "$profile" --measured "$tmp/fifo-table" --families kni
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --max-memory 0
bad "$mmsim" validate --profile "$profile" --measured "$tmp/nowhere"
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --max-n 0
# --families: a family named whose table the folder lacks, and an unknown name.
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families rap
bad "$mmsim" validate --profile "$profile" --measured "$tmp/measured" --families kni,nope
exit $fail
