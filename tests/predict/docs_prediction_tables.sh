#!/usr/bin/env bash
# docs/prediction.md's prediction tables are what `mmsim validate --tables` makes of the committed
# validate CSVs: each table the command prints (between its markers) must stand, line for line,
# in the document. Run from the repository's root, as the document's command is.
mmsim=$1
root=$2
source "$(dirname "$0")/../cli_lib.sh"
cd "$root" || exit 1
ok "$mmsim" validate --tables results/gpu-h100 results/gpu-h200
cp "$tmp/out" "$tmp/tables"
names=$(sed -n 's/^<!-- prediction table \([a-z]*\): .*/\1/p' "$tmp/tables")
[ "$(echo $names)" = "kni overall families intervals" ] || { echo "FAIL: the command printed the tables '$names'"; fail=1; }
for name in $names; do
  block() { sed -n "/^<!-- prediction table $name: /,/^<!-- end of prediction table $name -->/p" "$1"; }
  if [ "$(block docs/prediction.md)" != "$(block "$tmp/tables")" ]; then
    echo "FAIL: docs/prediction.md's table $name is not the command's; it prints:"
    block "$tmp/tables"
    fail=1
  fi
done
# The H100's profile of 2026-11-23, the default before 2026-12-08: its intervals table, as the
# command prints it for the folder that keeps it with its tables.
ok "$mmsim" validate --tables results/gpu-h100/calibration-2026-11-23
between() { sed -n "/^<!-- $1: /,/^<!-- end of $1 -->/p" "$2" | sed '1d;$d'; }
printed=$(between "prediction table intervals" "$tmp/out")
if [ -z "$printed" ] || [ "$(between "previous profile intervals" docs/prediction.md)" != "$printed" ]; then
  echo "FAIL: docs/prediction.md's previous profile intervals are not the command's; it prints:"
  echo "$printed"
  fail=1
fi
# validate.csv's parm rows, simulated since rows up to 2^20 are, are counted from validate-parm.csv
# alone, not twice: pricing validate.csv's 2^20 parm rows leaves every table as it was.
mkdir -p "$tmp/twice"
cp -r results/gpu-h100 "$tmp/twice/gpu-h100"
python3 - "$tmp/twice/gpu-h100/validate.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["family"] == "parm sort" and r["n"] == "1048576":
        r["simulated"] = "parm-sort"
        for k in r:
            if k.endswith("_ms") and k != "measured_ms" or k.endswith("_error"):
                r[k] = "0.5" if k.endswith("_error") else "1"
with open(sys.argv[1], "w", newline="") as f:
    w = csv.DictWriter(f, list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
grep -q '^parm sort,.*,1048576,.*,parm-sort,1,' "$tmp/twice/gpu-h100/validate.csv" || { echo "FAIL: the test's parm rows"; fail=1; }
ok "$mmsim" validate --tables results/gpu-h100
grep -v '^<!--' "$tmp/out" >"$tmp/once"
ok "$mmsim" validate --tables "$tmp/twice/gpu-h100"
grep -v '^<!--' "$tmp/out" | cmp -s - "$tmp/once" || { echo "FAIL: validate.csv's parm rows counted beside validate-parm.csv's"; fail=1; }
# Its bad inputs: a folder that is not one, a folder without validate tables, a file that is not one.
bad "$mmsim" validate --tables "$tmp/nowhere"
mkdir -p "$tmp/empty/gpu-x" "$tmp/broken/gpu-x"
bad "$mmsim" validate --tables "$tmp/empty/gpu-x"
echo "family,n" >"$tmp/broken/gpu-x/validate.csv"
bad "$mmsim" validate --tables "$tmp/broken/gpu-x"
bad "$mmsim" validate --tables results/gpu-h100 --profile results/gpu-h100/profile-h100.json
# A folder whose table was priced with another profile than the one it holds (the H100's of
# 2026-11-23 beside the profile of 2026-12-07) is refused, not tabled with the wrong interval.
mkdir -p "$tmp/mixed/gpu-h100"
cp results/gpu-h100/profile-h100.json "$tmp/mixed/gpu-h100/"
cp results/gpu-h100/calibration-2026-11-23/validate.csv "$tmp/mixed/gpu-h100/"
bad "$mmsim" validate --tables "$tmp/mixed/gpu-h100"
grep -q "priced with the profile of 2026-11-23" "$tmp/err" || { echo "FAIL: the mixed folder's refusal"; cat "$tmp/err"; fail=1; }
bad "$mmsim" validate
exit $fail
