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
# Its bad inputs: a folder that is not one, a folder without validate tables, a file that is not one.
bad "$mmsim" validate --tables "$tmp/nowhere"
mkdir -p "$tmp/empty/gpu-x" "$tmp/broken/gpu-x"
bad "$mmsim" validate --tables "$tmp/empty/gpu-x"
echo "family,n" >"$tmp/broken/gpu-x/validate.csv"
bad "$mmsim" validate --tables "$tmp/broken/gpu-x"
bad "$mmsim" validate --tables results/gpu-h100 --profile results/gpu-h100/profile-h100.json
bad "$mmsim" validate
exit $fail
