#!/usr/bin/env bash
# Golden files of the reproduced tables: regenerates every table listed in tables.txt at its small
# configuration and compares it, as CSV, with the checked-in NAME.csv beside this script. Every row
# ends with the build that made it (mmsim_version, mmsim_commit: docs/report.md), which changes with
# every commit: both cells are written as <version> and <commit> before the comparison.
#   check.sh MMSIM            compare; any difference fails and is printed as a diff
#   check.sh MMSIM --update   rewrite the golden files (then review `git diff tests/golden`)
set -u
MMSIM=$1
UPDATE=${2:-}
DIR=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0 failed=0
while read -r name options; do
  case "$name" in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086  # the options are words by design
  if ! "$MMSIM" table "$name" $options --format csv >"$tmp/$name.csv" 2>"$tmp/err"; then
    echo "FAIL $name: mmsim table exited $?: $(head -1 "$tmp/err")"
    failed=$((failed + 1))
    continue
  fi
  sed -i -E '2,$ s/,[^,]*,[^,]*$/,<version>,<commit>/' "$tmp/$name.csv"
  checked=$((checked + 1))
  if [ "$UPDATE" = --update ]; then
    cp "$tmp/$name.csv" "$DIR/$name.csv"
  elif ! diff -u "$DIR/$name.csv" "$tmp/$name.csv" >"$tmp/diff"; then
    echo "FAIL $name: differs from tests/golden/$name.csv (rerun with --update if the change is meant):"
    head -40 "$tmp/diff"
    failed=$((failed + 1))
  fi
done <"$DIR/tables.txt"
echo "golden tables: $checked checked, $failed failed"
[ "$failed" -eq 0 ] && [ "$checked" -gt 0 ]
