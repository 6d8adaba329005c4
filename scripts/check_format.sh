#!/usr/bin/env bash
# Fails when a tracked C++ or CUDA source differs from what the repository's .clang-format makes of
# it. CI runs it (.ci/run); `scripts/check_format.sh --fix` rewrites the files in place.
set -euo pipefail
cd "$(dirname "$0")/.."
FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$FORMAT" >/dev/null; then
  echo "check_format.sh: $FORMAT not found (Debian package clang-format)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')
if [ "${1:-}" = --fix ]; then
  "$FORMAT" -i "${files[@]}"
  exit 0
fi
if ! "$FORMAT" --dry-run -Werror "${files[@]}" 2>/tmp/check_format.$$; then
  grep -m 20 "error:" /tmp/check_format.$$ >&2 || true
  rm -f /tmp/check_format.$$
  echo "check_format.sh: files differ from .clang-format ($("$FORMAT" --version)); run scripts/check_format.sh --fix" >&2
  exit 1
fi
rm -f /tmp/check_format.$$
echo "check_format.sh: ${#files[@]} files formatted as .clang-format says"
