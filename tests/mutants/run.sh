#!/usr/bin/env bash
# The mutation check (docs/mutants.md): builds each mutant of tests/mutants/list.txt in one reused
# build folder, runs the tests that must kill it, prints mutant -> killed by which tests, and fails if
# any mutant survives. Between mutants only the files carrying sites recompile (cmake/mutant.cmake).
#
#   tests/mutants/run.sh [--build DIR] [--only NAME] [--subset K] [--seed HEX]
#
# --subset K runs K mutants: a window of the list that starts at SEED mod (number of mutants), SEED
# being --seed or else the commit hash, so that successive commits cover the whole list. The build
# folder is left configured with no mutant (MMSIM_MUTANT empty) and rebuilt, so it can be reused.
# Exit status: 0 every mutant killed, 1 one survived, 2 bad option, 3 a mutant failed to build or no
# test matched its pattern.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
list="$root/tests/mutants/list.txt"
build="$root/build-mutants"
only="" subset=0 seed=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --subset) subset="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
jobs="${JOBS:-$(nproc)}"

mapfile -t lines < <(grep -v '^#' "$list" | grep -v '^[[:space:]]*$')
names=()
for l in "${lines[@]}"; do names+=("$(echo "$l" | cut -d'|' -f1 | xargs)"); done

# Every mutant has a site, and every site a line: a misspelt name would be a mutant never switched on.
sites=$(grep -rhoE --include='*.cpp' 'mutant::is\("[A-Za-z0-9_]+"\)' "$root/sim" "$root/models" "$root/algorithms" | sed 's/.*("//;s/")//' | sort -u)
if [[ "$(printf '%s\n' "${names[@]}" | sort -u)" != "$sites" ]]; then
  echo "run.sh: the mutants of list.txt and the sites in the sources differ:" >&2
  diff <(printf '%s\n' "${names[@]}" | sort -u) <(echo "$sites") >&2 || true
  exit 1
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

# An existing build folder keeps its options (CI reuses the test build): only the mutant changes.
configure() {
  local options=(-DMMSIM_MUTANT="$1")
  [[ -f "$build/CMakeCache.txt" ]] ||
    options+=(-DCMAKE_BUILD_TYPE=Release -DMMSIM_BUILD_TESTS=ON -DMMSIM_CUDA=OFF -DMMSIM_PYTHON=OFF)
  mkdir -p "$build"  # its logs live inside it, never beside it in the source tree
  cmake -S "$root" -B "$build" "${options[@]}" >/dev/null 2>"$build/mutants-cmake.log" || { cat "$build/mutants-cmake.log" >&2; exit 3; }
}
built=()

survivors=0
printf '%-30s %-8s %s\n' mutant result "killed by"
for i in "${chosen[@]}"; do
  name="${names[$i]}"
  targets=$(echo "${lines[$i]}" | cut -d'|' -f2 | xargs)
  built+=($targets)
  pattern=$(echo "${lines[$i]}" | cut -d'|' -f3 | xargs)
  start_s=$SECONDS
  configure "$name"
  # shellcheck disable=SC2086
  if ! cmake --build "$build" -j "$jobs" --target $targets >"$build/mutants-build.log" 2>&1; then
    echo "run.sh: mutant $name does not build" >&2
    tail -20 "$build/mutants-build.log" >&2
    exit 3
  fi
  out=$(ctest --test-dir "$build" -R "$pattern" 2>&1 || true)
  failed=$(echo "$out" | sed -n '/The following tests FAILED/,$p' | grep -oE '[0-9]+ - [A-Za-z0-9_]+' | sed 's/.* - //' | xargs || true)
  ran=$(echo "$out" | grep -oE 'tests passed, [0-9]+ tests failed out of [0-9]+' | grep -oE '[0-9]+$' || echo 0)
  if [[ "$ran" == 0 ]]; then
    echo "run.sh: mutant $name: no test matches $pattern" >&2
    exit 3
  fi
  if [[ -n "$failed" ]]; then
    printf '%-30s %-8s %s (%ds)\n' "$name" killed "$failed" $((SECONDS - start_s))
  else
    printf '%-30s %-8s %s (%ds)\n' "$name" SURVIVED "-" $((SECONDS - start_s))
    survivors=$((survivors + 1))
  fi
done

# Leave the folder as mmsim itself, its mutated targets rebuilt, so that nothing run from it later
# (ctest in a reused folder) meets a mutant.
configure ""
if [[ ${#built[@]} -gt 0 ]]; then
  cmake --build "$build" -j "$jobs" --target $(printf '%s\n' "${built[@]}" | sort -u) >"$build/mutants-build.log" 2>&1 ||
    { tail -20 "$build/mutants-build.log" >&2; exit 3; }
fi
echo "${#chosen[@]} mutants, $((${#chosen[@]} - survivors)) killed, $survivors survived"
[[ $survivors -eq 0 ]]
