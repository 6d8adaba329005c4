#!/usr/bin/env bash
# Every example of the README runs: each line of its ```sh blocks that starts with `mmsim ` is run
# with the built mmsim first on the PATH, in order, in one scratch folder where `results/` is the
# committed one (through links, so that nothing of the source tree is written), and must exit 0.
# Not run here: `mmsim gpu ...` (no GPU; docs/testing.md says how they were checked) and the lines
# whose comment says they take minutes.
#   readme_examples.sh MMSIM SOURCE_DIR
set -u
mmsim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/work"
ln -s "$mmsim" "$tmp/bin/mmsim"
cp -rs "$src/results" "$tmp/work/results"
rm "$tmp/work/results/README.md"  # a write follows a link: an example that rewrites the page writes the copy
cp -rs "$src/docs" "$tmp/work/docs"
cp -rs "$src/examples" "$tmp/work/examples"
ran=0 skipped=0 failed=0
while IFS= read -r line; do
  case "$line" in
    'mmsim gpu '*) skipped=$((skipped + 1)); continue ;;
    *'# '*minutes*) echo "not run here (minutes): $line"; skipped=$((skipped + 1)); continue ;;
  esac
  ran=$((ran + 1))
  if ! (cd "$tmp/work" && PATH="$tmp/bin:$PATH" bash -c "$line") >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL: $line"
    head -3 "$tmp/err"
    failed=$((failed + 1))
  fi
done < <(awk '/^```sh/ { on = 1; next } /^```/ { on = 0 } on && /^mmsim / { print }' "$src/README.md")
echo "README examples: $ran run, $failed failed, $skipped not run here"
[ "$failed" = 0 ] && [ "$ran" -gt 0 ]
