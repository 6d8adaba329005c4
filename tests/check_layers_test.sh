#!/usr/bin/env bash
# scripts/check_layers.py catches a back arrow: a copy of a tiny tree where sim/ includes models/,
# and a CMakeLists.txt that compiles another folder's source, must both be reported (status 1).
set -euo pipefail
check=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/sim" "$dir/models" "$dir/cli"
printf '#include "sim/types.h"\n' > "$dir/models/machines.h"
printf '#include "sim/types.h"\n' > "$dir/sim/engine.h"
python3 "$check" "$dir" >/dev/null || { echo "FAIL: a clean tree was refused"; exit 1; }
printf '#include "models/machines.h"\n' > "$dir/sim/engine.h"
printf 'add_library(x ${PROJECT_SOURCE_DIR}/sim/engine.cpp)\n' > "$dir/cli/CMakeLists.txt"
if out=$(python3 "$check" "$dir"); then echo "FAIL: back arrows passed"; exit 1; fi
grep -q "sim/engine.h: includes models/machines.h" <<<"$out" || { echo "FAIL: include not named: $out"; exit 1; }
grep -q "cli/CMakeLists.txt: compiles" <<<"$out" || { echo "FAIL: foreign source not named: $out"; exit 1; }
echo "check_layers catches both back arrows"
