#!/usr/bin/env bash
# docs/report.md's tables of the run report's fields are the program's own: each table that follows
# a line `<!-- mmsim list --fields TABLE -->` must equal what that command prints, every table
# `mmsim list --fields` knows must be there, and the JSON of a run has exactly the report table's keys.
# usage: report_fields_doc.sh MMSIM DOCS_REPORT_MD
set -u
mmsim=$1
doc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
seen=""
while IFS= read -r table; do
  seen="$seen $table"
  # The table: the lines after the marker, up to the first blank line.
  awk -v m="<!-- mmsim list --fields $table -->" '$0 == m {on = 1; next} on && $0 == "" {exit} on {print}' \
    "$doc" >"$tmp/doc"
  if ! "$mmsim" list --fields "$table" >"$tmp/gen" 2>"$tmp/err"; then
    echo "FAIL: mmsim list --fields $table: $(cat "$tmp/err")"; fail=1; continue
  fi
  if ! diff -u "$tmp/doc" "$tmp/gen"; then
    echo "FAIL: docs/report.md's $table table differs from mmsim list --fields $table (the diff above)"; fail=1
  fi
done < <(sed -n 's/^<!-- mmsim list --fields \([a-z]*\) -->$/\1/p' "$doc")
for table in report round phase trace; do
  case " $seen " in *" $table "*) ;; *) echo "FAIL: docs/report.md has no $table table"; fail=1 ;; esac
done
"$mmsim" list --fields nonsense >/dev/null 2>"$tmp/err"
if [ $? != 2 ] || ! grep -q "^mmsim: --fields: must be one of report, round, phase, trace (got 'nonsense')$" "$tmp/err"; then
  echo "FAIL: an unknown table: $(cat "$tmp/err")"; fail=1
fi
# The keys a run prints, in order, are the report table's rows.
"$mmsim" list --fields report | sed -n 's/^| `\([a-z_]*\)`.*/\1/p' >"$tmp/keys"
"$mmsim" run d-designated -n 256 --json | python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)))' >"$tmp/json"
diff -u "$tmp/keys" "$tmp/json" || { echo "FAIL: the JSON's keys are not the report table's"; fail=1; }
exit $fail
