#!/usr/bin/env bash
# mmsim's one entry point for people and CI: installs what is missing, builds, and runs a job.
#   ./mmsim.sh reproduce      build, then write every reproduced table and figure to results/
#   ./mmsim.sh test           build, then run the whole test suite (ends with ctest's summary)
#   ./mmsim.sh test-sanitize  the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   ./mmsim.sh bench          the engine's speed benchmark
set -euo pipefail
cd "$(dirname "$0")"

JOBS=${MMSIM_JOBS:-$(nproc 2>/dev/null || echo 2)}
PACKAGES=(cmake g++ make libboost-graph-dev libeigen3-dev libcli11-dev doctest-dev gnuplot-nox)

setup() {
  command -v dpkg-query >/dev/null || return 0
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "mmsim.sh: installing ${missing[*]}"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
      echo "mmsim.sh: apt-get could not install ${missing[*]}; trying to build with what is here" >&2
    fi
  else
    echo "mmsim.sh: missing packages ${missing[*]} (run as root to install them); trying to build anyway" >&2
  fi
}

build() {  # build DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$JOBS"
}

case "${1:-}" in
  reproduce)
    setup
    build build -DMMSIM_BUILD_TESTS=OFF
    ./build/cli/mmsim reproduce --out results
    ;;
  test)
    setup
    build build -DMMSIM_BUILD_TESTS=ON
    ctest --test-dir build --output-on-failure -j "$JOBS"
    ;;
  test-sanitize)
    setup
    build build-sanitize -DMMSIM_BUILD_TESTS=ON -DMMSIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --test-dir build-sanitize --output-on-failure -j "$JOBS"
    ;;
  bench)
    setup
    build build -DMMSIM_BUILD_TESTS=OFF
    ./build/cli/mmsim bench
    ;;
  *)
    echo "usage: ./mmsim.sh reproduce | test | test-sanitize | bench" >&2
    exit 2
    ;;
esac
