#!/usr/bin/env bash
# scripts/check_links.py catches what it should: on a tiny tree whose documents resolve it passes,
# and a broken link, a link to a missing heading, a path that names nothing and a folder missing
# from the README's tree table are each reported (status 1).
#   check_links_test.sh PYTHON CHECK_LINKS
set -u
python=$1
check=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/docs" "$dir/sim" "$dir/results/gpu-h100"
touch "$dir/sim/engine.h" "$dir/results/gpu-h100/validate.md" "$dir/results/gpu-h100/validate.csv"
cat >"$dir/README.md" <<'MD'
# x

## How the tree is built

| folder | what |
|---|---|
| `docs/` | documents |
| `results/` | tables |
| `sim/` | the engine, `sim/engine.h` |

See [the guide](docs/guide.md#second-part) and [above](#how-the-tree-is-built); tables in
`results/gpu-<device>/validate.{md,csv}` and `results/gpu*/validate.md`, `results/NAME/validate.md`.
MD
printf '# Guide\n\n## Second part\n\nBack to [the README](../README.md).\n' >"$dir/docs/guide.md"
if ! out=$("$python" "$check" "$dir"); then echo "FAIL: a tree whose references resolve was refused: $out"; exit 1; fi
printf '\n[gone](docs/gone.md), [no such part](docs/guide.md#third-part), `sim/missing.h`\n' >>"$dir/README.md"
printf '# Guide\n\n## Second part\n\n`results/gpu-<device>/validate.{md,json}`\n' >"$dir/docs/guide.md"
mkdir "$dir/cuda" && touch "$dir/cuda/k.cu"
if out=$("$python" "$check" "$dir"); then echo "FAIL: broken references passed"; exit 1; fi
fail=0
for want in "link to docs/gone.md, which does not exist" "no heading of docs/guide.md has the anchor #third-part" \
  "the path sim/missing.h names nothing" "docs/guide.md:5: the path results/gpu-<device>/validate.{md,json} names nothing" \
  "does not list cuda/"; do
  grep -qF "$want" <<<"$out" || { echo "FAIL: not reported: $want"; fail=1; }
done
[ "$fail" = 0 ] || { echo "$out"; exit 1; }
echo "check_links catches a broken link, a missing heading, a missing path and an unlisted folder"
