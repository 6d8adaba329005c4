#!/usr/bin/env bash
# The committed results/README.md is the page `mmsim reproduce --readme` writes from the registry
# and the committed files. It runs on a copy of results/ made of links, so that the source tree is
# never written.
#   results_readme.sh MMSIM SOURCE_DIR
set -u
mmsim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -rs "$src/results" "$tmp/results"
rm -f "$tmp/results/README.md"
if ! "$mmsim" reproduce --readme --out "$tmp/results" >"$tmp/out" 2>"$tmp/err"; then
  echo "FAIL: mmsim reproduce --readme exited with an error: $(head -1 "$tmp/err")"
  exit 1
fi
[ "$(cat "$tmp/out")" = "$tmp/results/README.md" ] || { echo "FAIL: it printed $(cat "$tmp/out")"; exit 1; }
if ! diff -u "$src/results/README.md" "$tmp/results/README.md" >"$tmp/diff"; then
  echo "FAIL: results/README.md is not what the registry makes; rewrite it with"
  echo "  build/cli/mmsim reproduce --readme --out results"
  head -60 "$tmp/diff"
  exit 1
fi
# A folder that is not there holds nothing to list: status 2 with one line.
"$mmsim" reproduce --readme --out "$tmp/nowhere" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] ||
  { echo "FAIL: --readme on a missing folder gave status $status: $(cat "$tmp/err")"; exit 1; }
echo "results/README.md is what mmsim reproduce --readme makes"
