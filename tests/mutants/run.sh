#!/usr/bin/env bash
# The mutation check (docs/mutants.md). Each mutant of tests/mutants/list.txt is a patch,
# tests/mutants/NAME.patch, against the clean sources: this script applies it to a scratch copy of
# the source tree, builds the targets its line names there, runs the ctest pattern its line names,
# and prints whether the tests killed it. The product's own sources never carry a mutant.
#
#   tests/mutants/run.sh [--build DIR] [--only NAME] [--subset K] [--seed HEX]
#   tests/mutants/run.sh --check
#
# The scratch copy lives in DIR/mutants/ (DIR: --build, else build-mutants): src/ holds the copy,
# refreshed from the working tree before every mutant (only files whose content differs are
# rewritten, so the previous mutant's file is restored and recompiled, nothing else), and src/build/
# its build folder, kept from run to run. The build folder sits inside the copy as DIR sits inside
# the source tree, so that ccache, with a base_dir above both, finds the objects DIR already built.
# The scratch build takes DIR's build type and Python option where DIR is configured.
#
# --subset K runs K mutants: a window of the list that starts at SEED mod (number of mutants), SEED
# being --seed or else the commit hash, so that successive commits cover the whole list.
# --check only checks, without building, that every line of list.txt has its patch, every patch its
# line, and every patch applies cleanly to the current sources (ctest's mutants_apply).
# Exit status: 0 every mutant killed (or --check passed), 1 one survived (or --check failed), 2 bad
# option, 3 a mutant did not apply or build, or its pattern ran no test.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/tests/mutants"
list="$here/list.txt"
build="$root/build-mutants"
only="" subset=0 seed="" check=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --subset) subset="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --check) check=1; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ "$subset" =~ ^[0-9]+$ ]] || { echo "run.sh: --subset needs a count, not $subset" >&2; exit 2; }
[[ -z "$seed" || "$seed" =~ ^[0-9a-fA-F]+$ ]] || { echo "run.sh: --seed needs hex digits, not $seed" >&2; exit 2; }
jobs="${JOBS:-$(nproc)}"

# Fields are separated by " | " (a bar between spaces), so that a pattern may hold "|" without spaces.
mapfile -t lines < <(grep -v '^#' "$list" | grep -v '^[[:space:]]*$')
field() { awk -F ' [|] ' -v i="$2" '{ print $i }' <<<"$1" | xargs; }
names=()
for l in "${lines[@]}"; do names+=("$(field "$l" 1)"); done

# git apply outside any repository above `dir`: the scratch copy lies inside the working tree's
# ignored build folder, and a patch must apply to the copy, not to the tree around it.
apply_in() {  # apply_in DIR [git apply options...] PATCH
  local dir=$1; shift
  (cd "$dir" && GIT_CEILING_DIRECTORIES="$(dirname "$dir")" git apply "$@")
}

if [[ $check -eq 1 ]]; then
  bad=0
  for name in "${names[@]}"; do
    patch="$here/$name.patch"
    if [[ ! -s "$patch" ]]; then
      echo "mutants_apply: $name is listed but has no patch tests/mutants/$name.patch" >&2
      bad=1
    elif ! out=$(apply_in "$root" --check "$patch" 2>&1); then
      echo "mutants_apply: tests/mutants/$name.patch no longer applies to the sources: $out" >&2
      bad=1
    fi
  done
  for patch in "$here"/*.patch; do
    name=$(basename "$patch" .patch)
    # A here-string, not a pipe: under pipefail, grep -q leaving early could fail printf with SIGPIPE.
    grep -qxF -- "$name" <<<"$(printf '%s\n' "${names[@]}")" ||
      { echo "mutants_apply: $name.patch is in no line of list.txt" >&2; bad=1; }
  done
  [[ $bad -eq 0 ]] && echo "mutants_apply: ${#names[@]} mutants, every patch applies to the sources"
  exit $bad
fi

chosen=()
n=${#lines[@]}
if [[ -n "$only" ]]; then
  for i in "${!names[@]}"; do [[ "${names[$i]}" == "$only" ]] && chosen+=("$i"); done
  [[ ${#chosen[@]} -eq 1 ]] || { echo "run.sh: no mutant named $only" >&2; exit 2; }
elif [[ "$subset" -gt 0 ]]; then
  [[ -n "$seed" ]] || seed=$(git -C "$root" rev-parse HEAD)
  start=$(( 16#${seed:0:7} % n ))
  for ((j = 0; j < subset && j < n; ++j)); do chosen+=($(( (start + j) % n ))); done
else
  chosen=("${!lines[@]}")
fi

mkdir -p "$build"
build="$(cd "$build" && pwd)"
work="$build/mutants"
src="$work/src"
scratch="$src/build"
mkdir -p "$src"

# Makes src/ equal to the working tree (tracked files and untracked ones git does not ignore).
# A file whose content differs is rewritten with a fresh time stamp, so make rebuilds what used it.
refresh() {
  (cd "$root" && git ls-files -z --cached --others --exclude-standard) | python3 -c '
import os, shutil, sys
root, src = sys.argv[1], sys.argv[2]
files = {f for f in sys.stdin.read().split("\0") if f and os.path.lexists(os.path.join(root, f))}
for f in files:
    a, b = os.path.join(root, f), os.path.join(src, f)
    if os.path.islink(a) or os.path.islink(b):
        if not (os.path.islink(b) and os.path.islink(a) and os.readlink(a) == os.readlink(b)):
            if os.path.lexists(b): os.remove(b)
            os.makedirs(os.path.dirname(b), exist_ok=True)
            os.symlink(os.readlink(a), b) if os.path.islink(a) else shutil.copyfile(a, b)
        continue
    if os.path.isfile(b):
        with open(a, "rb") as x, open(b, "rb") as y:
            if x.read() == y.read(): continue
    os.makedirs(os.path.dirname(b), exist_ok=True)
    shutil.copyfile(a, b)
    shutil.copymode(a, b)
# Files the tree no longer has; the build folder stays.
for dirpath, dirs, names in os.walk(src):
    rel = os.path.relpath(dirpath, src)
    if rel == ".": dirs[:] = [d for d in dirs if not d.startswith("build")]
    for name in names:
        f = os.path.normpath(os.path.join(rel, name))
        if f not in files: os.remove(os.path.join(dirpath, name))
' "$root" "$src"
}

configure() {
  [[ -f "$scratch/CMakeCache.txt" ]] && return 0
  local options=(-DMMSIM_BUILD_TESTS=ON -DMMSIM_CUDA=OFF -DMMSIM_EXPLORER=OFF -DMMSIM_MPI=OFF)
  local type=Release python=OFF
  if [[ -f "$build/CMakeCache.txt" ]]; then
    type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
    python=$(sed -n 's/^MMSIM_PYTHON:[A-Z]*=//p' "$build/CMakeCache.txt")
  fi
  options+=(-DCMAKE_BUILD_TYPE="${type:-Release}" -DMMSIM_PYTHON="${python:-OFF}")
  command -v ccache >/dev/null && options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$src" -B "$scratch" "${options[@]}" >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; exit 3; }
}

refresh
configure
started=$SECONDS
survivors=0 broken=0
for i in "${chosen[@]}"; do
  name="${names[$i]}"
  targets=$(field "${lines[$i]}" 2)
  pattern=$(field "${lines[$i]}" 3)
  start_s=$SECONDS
  refresh
  if ! apply_in "$src" "$here/$name.patch" 2>"$work/apply.log"; then
    echo "mutant $name did not apply: $(head -3 "$work/apply.log" | xargs)"
    broken=$((broken + 1))
    continue
  fi
  # shellcheck disable=SC2086
  if ! cmake --build "$scratch" -j "$jobs" --target $targets >"$work/build.log" 2>&1; then
    echo "mutant $name did not build (its log: $work/build.log)"
    tail -20 "$work/build.log" >&2
    broken=$((broken + 1))
    continue
  fi
  out=$(ctest --test-dir "$scratch" -R "$pattern" --output-on-failure 2>&1 || true)
  failures=$(echo "$out" | sed -n '/The following tests FAILED/,$p')
  failed=$(echo "$failures" | grep -oE '[0-9]+ - [A-Za-z0-9_]+' | sed 's/.* - //' | xargs || true)
  ran=$(echo "$out" | grep -oE 'tests passed, [0-9]+ tests failed out of [0-9]+' | grep -oE '[0-9]+$' || echo 0)
  if [[ "$ran" == 0 ]]; then
    echo "mutant $name: no test matches $pattern"
    broken=$((broken + 1))
  elif grep -q "Not Run" <<<"$failures"; then
    echo "mutant $name: $pattern names a test its targets ($targets) do not build"
    broken=$((broken + 1))
  elif [[ -n "$failed" ]]; then
    echo "mutant $name killed by $failed ($((SECONDS - start_s)) s)"
    # The doctest cases that failed, under the executable that ran them.
    awk 'match($0, /Test +#[0-9]+: [A-Za-z0-9_]+/) { split(substr($0, RSTART, RLENGTH), f, ": "); exe = f[2] }
         sub(/^TEST CASE: +/, "") && !seen[exe ": " $0]++ { print "    " exe ": \"" $0 "\"" }' <<<"$out"
  else
    echo "mutant $name SURVIVED ($((SECONDS - start_s)) s)"
    survivors=$((survivors + 1))
  fi
done
refresh  # the copy back to the clean sources

echo "${#chosen[@]} mutants: $((${#chosen[@]} - survivors - broken)) killed, $survivors survived, $broken did not apply or build ($((SECONDS - started)) s)"
[[ $broken -eq 0 ]] || exit 3
[[ $survivors -eq 0 ]]
