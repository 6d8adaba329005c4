#!/usr/bin/env bash
# mmsim's one entry point for people and CI: installs what is missing, builds, and runs a job.
#   ./mmsim.sh reproduce      build, then write every reproduced table and figure to results/, and
#                             results/README.md, the list of them all
#   ./mmsim.sh test           build, then run the whole test suite (ends with ctest's summary)
#   ./mmsim.sh test-sanitize  the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   ./mmsim.sh mutants [--subset K]  the mutation check on patched copies beside the test build
#   ./mmsim.sh bench          the engine's speed benchmark
#   ./mmsim.sh package        build, then the Debian packages mmsim and python3-mmsim into dist/
#   ./mmsim.sh explorer       the explorer page (engine compiled to WebAssembly) into build/explorer/site/
#   ./mmsim.sh gpu-reproduce  on a CUDA GPU machine: build with CUDA, run the GPU tests, write every
#                             GPU table, the validation and the device's name, driver and clocks
#                             to results/gpu-<device>/ (results/gpu-h100, results/gpu-h200)
set -euo pipefail
cd "$(dirname "$0")"

JOBS=${MMSIM_JOBS:-$(nproc 2>/dev/null || echo 2)}
# libopenmpi-dev and openmpi-bin: `mmsim sweep` under mpirun, and the test that runs it so.
PACKAGES=(cmake g++ make libboost-graph-dev libeigen3-dev libcli11-dev doctest-dev gnuplot-nox libopenmpi-dev openmpi-bin
  # the Python module and its tests and example (docs/library.md)
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib
  # mmsim.sweep(grid, executor=...) is tested on an MPI pool (mpi4py.futures) and a local Dask cluster
  python3-mpi4py python3-distributed
  # the notebook of examples/notebooks, run top to bottom by a test
  python3-nbclient python3-ipykernel jupyter-nbconvert
  # cpack's Debian packages: dpkg-shlibdeps computes their Depends, and reads files' types with file
  dpkg-dev file
  # .ci/run checks the sources against .clang-format
  clang-format
  # compiler cache: a rebuild, or a fresh clone, recompiles only what changed
  ccache
  # the explorer: Emscripten (with node-acorn, which Debian's emcc needs) and the browser its tests run
  emscripten node-acorn chromium)

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

# accesses_tables MMSIM DIR: the real-access catalogue beside DIR's Nsight Compute counts
# (DIR/accesses-ncu.md) and the simulated histograms beside DIR's GPU times (DIR/histograms.md),
# where DIR has them. CPU only; a row that differs makes the command exit 1, and this says so.
accesses_tables() {
  if [ -f "$2/ncu-accesses.csv" ]; then
    "$1" accesses --ncu "$2/ncu-accesses.csv" >"$2/accesses-ncu.md" || echo "mmsim.sh: $2/accesses-ncu.md has rows that differ" >&2
  fi
  if [ -f "$2/histograms-gpu.csv" ]; then
    "$1" accesses --histograms --gpu "$2/histograms-gpu.csv" >"$2/histograms.md" || echo "mmsim.sh: a histogram was wrong" >&2
  fi
}

# table1_figures MMSIM DIR: KNI Table 1's bounds beside DIR/kasagi-t2.csv on DIR's GPU profile's
# machine (DIR/table1-bounds.{md,csv}), then their fits (DIR/table1_bounds_fit.csv), and the figure
# when gnuplot is here. CPU only.
table1_figures() {
  local profile="" f
  for f in "$2"/profile-*.json; do [ -f "$f" ] && { profile=$f; break; }; done
  [ -f "$2/kasagi-t2.csv" ] && [ -n "$profile" ] || return 0
  "$1" table1-bounds --profile "$profile" --measured "$2" --out "$2" --threads "$JOBS" >/dev/null || return
  if command -v gnuplot >/dev/null; then
    MMSIM=$1 scripts/gpu_table1_figures.sh "$2" >/dev/null
  else
    "$1" fit-bounds table1 "$2" >/dev/null
  fi
}

# With ccache, paths are hashed relative to this checkout, so that a fresh clone (CI's) reuses what
# any earlier checkout compiled; the results are the compiler's own either way.
LAUNCHER=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi

build() {  # build DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" "$@" >/dev/null
  cmake --build "$dir" -j "$JOBS"
}

case "${1:-}" in
  reproduce)
    setup
    build build -DMMSIM_BUILD_TESTS=OFF
    ./build/cli/mmsim reproduce --out results
    # The GPU's figures, drawn here from the CSVs the GPU machine wrote (it has no gnuplot): BDS
    # Fig. 11, GL's throughput, AS's bounds, and KNI Table 1's bounds against the GPU's times from
    # the table1-bounds.csv that gpu-reproduce's bounds stage wrote (its D_w up to n = 2^28 takes
    # minutes on two cores); and the goals page from bench.csv and bmmc.csv.
    export MMSIM=./build/cli/mmsim
    for d in results/gpu-*; do
      if [ -f "$d/bmmc.csv" ]; then scripts/gpu_bmmc_figures.sh "$d" >/dev/null; fi
      if [ -f "$d/enumeration.csv" ]; then scripts/gpu_enumeration_figures.sh "$d" >/dev/null; fi
      if [ -f "$d/as-gpu.csv" ]; then scripts/gpu_bounds_figures.sh "$d" >/dev/null; fi
      if [ -f "$d/table1-bounds.csv" ]; then scripts/gpu_table1_figures.sh "$d" >/dev/null; fi
      if [ -f "$d/bench.csv" ] && [ -f "$d/bmmc.csv" ]; then "$MMSIM" gpu-goals "$d" >"$d/goals.md"; fi
      accesses_tables ./build/cli/mmsim "$d"
    done
    # results/README.md once more, now that the GPU's figures it links are drawn too.
    ./build/cli/mmsim reproduce --readme --out results >/dev/null
    ;;
  test)
    setup
    # With the Python module, so that ctest also runs its tests, the install, the example built
    # against the install and the Debian packages (tests/library).
    build build -DMMSIM_BUILD_TESTS=ON -DMMSIM_PYTHON=ON
    ctest --test-dir build --output-on-failure -j "$JOBS"
    ;;
  test-sanitize)
    setup
    # Without MPI: LeakSanitizer would report the MPI library's own allocations (the MPI sweep test
    # runs in the other build). Without the explorer: its WebAssembly build is not sanitized, and the
    # other build tests it.
    # -O1 -g1 (line tables), as the sanitizers' own docs advise: the compile takes half the time of
    # -O2 -g on this code (110 s against 50 s for one CLI source), and the reports keep their lines.
    build build-sanitize -DMMSIM_BUILD_TESTS=ON -DMMSIM_SANITIZE=ON -DMMSIM_CUDA=OFF -DMMSIM_MPI=OFF -DMMSIM_EXPLORER=OFF \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --test-dir build-sanitize --output-on-failure -j "$JOBS"
    ;;
  mutants)
    # The mutation check (docs/mutants.md): each mutant patched into a copy of the sources kept in
    # build/mutants/, built with the test build's options; tests/mutants/run.sh's options follow.
    setup
    shift
    tests/mutants/run.sh --build build "$@"
    ;;
  bench)
    setup
    build build -DMMSIM_BUILD_TESTS=OFF
    ./build/cli/mmsim bench
    ;;
  package)
    setup
    build build -DMMSIM_PYTHON=ON
    (cd build && cpack -G DEB -B ../dist >/dev/null)
    ls dist/*.deb
    ;;
  explorer)
    setup
    # Only the WebAssembly build: the page needs no native binary.
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMMSIM_EXPLORER=ON >/dev/null
    cmake --build build --target explorer
    du -sh build/explorer/site
    echo "open build/explorer/site/index.html in a browser (from disk or any static web server)"
    ;;
  gpu-reproduce)
    # No package installs here: the GPU machine has no network, and its headers are already there.
    NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    # MMSIM_PREBUILT=DIR: run the mmsim, test_cuda_index, test_cuda_gpu, test_cuda_enumeration,
    # test_cuda_sorting and test_cuda_parm already built in DIR.
    B=${MMSIM_PREBUILT:-}
    if [ -z "$B" ]; then
      cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DMMSIM_BUILD_TESTS=ON -DMMSIM_CUDA=ON \
        -DCMAKE_CUDA_COMPILER="$NVCC" >/dev/null
      cmake --build build-gpu -j "$JOBS" --target mmsim test_cuda_index test_cuda_gpu test_cuda_enumeration \
        test_cuda_sorting test_cuda_parm
      mkdir -p build-gpu/bin
      cp build-gpu/cli/mmsim build-gpu/tests/cuda/test_cuda_index build-gpu/tests/cuda/test_cuda_gpu \
        build-gpu/tests/cuda/test_cuda_enumeration build-gpu/tests/cuda/test_cuda_sorting \
        build-gpu/tests/cuda/test_cuda_parm build-gpu/bin/
      B=build-gpu/bin
    fi
    # Results are kept per device: results/gpu-h100, results/gpu-h200 (MMSIM_GPU_OUT overrides).
    OUTDIR=${MMSIM_GPU_OUT:-results/gpu-$("$B/mmsim" gpu info --slug)}
    mkdir -p "$OUTDIR"
    SMI="name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,temperature.gpu"
    { echo "# before"; nvidia-smi --query-gpu="$SMI" --format=csv; } >"$OUTDIR/nvidia-smi.csv" 2>&1 || true
    # MMSIM_GPU_STAGES picks what runs (default: all), so the work can be split over several calls
    # of a machine that limits one command's time.
    STAGES=" ${MMSIM_GPU_STAGES:-tests bmmc parm enumeration sorting instructions accesses tables calibrate validate bounds ncu} "
    stage() { [[ "$STAGES" == *" $1 "* ]]; }
    status=0
    if stage tests; then
      "$B/test_cuda_index" || status=$?
      # The GPU tests exit 1 on any mismatch; the tables still run, and the script fails at the end.
      "$B/test_cuda_gpu" >"$OUTDIR/gpu-tests.txt" || { status=$?; echo "mmsim.sh: GPU TESTS FAILED" >&2; }
      tail -1 "$OUTDIR/gpu-tests.txt"
      "$B/test_cuda_enumeration" >"$OUTDIR/gpu-tests-enumeration.txt" ||
        { status=$?; echo "mmsim.sh: GPU ENUMERATION TESTS FAILED" >&2; }
      tail -1 "$OUTDIR/gpu-tests-enumeration.txt"
      "$B/test_cuda_sorting" >"$OUTDIR/gpu-tests-sorting.txt" ||
        { status=$?; echo "mmsim.sh: GPU SORTING TESTS FAILED" >&2; }
      tail -1 "$OUTDIR/gpu-tests-sorting.txt"
      "$B/test_cuda_parm" >"$OUTDIR/gpu-tests-parm.txt" || { status=$?; echo "mmsim.sh: GPU PARM TESTS FAILED" >&2; }
      tail -1 "$OUTDIR/gpu-tests-parm.txt"
      "$B/mmsim" gpu info >"$OUTDIR/device.md"
    fi
    if stage bmmc; then
      timeout "${MMSIM_GPU_BMMC_S:-120}" "$B/mmsim" gpu bmmc --out "$OUTDIR" --threads "$JOBS" 2>"$OUTDIR/bmmc-progress.log" || status=$?
    fi
    if stage parm; then
      # BDS Sect. 7's sorting network beside the simulator's run, then Nsight Compute's sector counts.
      timeout "${MMSIM_GPU_PARM_S:-150}" "$B/mmsim" gpu parm --out "$OUTDIR" --threads "$JOBS" \
        2>"$OUTDIR/parm-progress.log" || status=$?
      bash cuda/ncu_parm.sh "$B/mmsim" "$OUTDIR" || true  # optional: never fails the run
    fi
    if stage enumeration; then
      timeout "${MMSIM_GPU_ENUM_S:-150}" "$B/mmsim" gpu enumeration --out "$OUTDIR" 2>"$OUTDIR/enumeration-progress.log" || status=$?
    fi
    if stage sorting; then
      # AS's kernels beside the simulator's steps, then Nsight Compute's bank conflicts beside its counts.
      timeout "${MMSIM_GPU_SORTING_S:-240}" "$B/mmsim" gpu sorting --out "$OUTDIR" 2>"$OUTDIR/sorting-progress.log" ||
        status=$?
      bash cuda/ncu_sorting.sh "$B/mmsim" "$OUTDIR" || true  # optional: never fails the run
    fi
    if stage instructions; then
      # A warp's work besides memory: ALU chains, shared-memory chases and branches, alone and 32
      # warps per SM, then Nsight Compute's count of each one's warp instructions (validate prices
      # the A-S rows with them: predict/instruction_cost.h).
      timeout "${MMSIM_GPU_INSTRUCTIONS_S:-300}" "$B/mmsim" gpu instructions --out "$OUTDIR" \
        2>"$OUTDIR/instructions-progress.log" || status=$?
      bash cuda/ncu_instructions.sh "$B/mmsim" "$OUTDIR" || true  # optional: never fails the run
    fi
    if stage accesses; then
      # The real-access catalogue: Nsight Compute's wavefronts and sectors of every case, then the
      # atomic adds and the histograms timed (docs/model.md, "Real accesses").
      bash cuda/ncu_accesses.sh "$B/mmsim" "$OUTDIR" || true  # optional: never fails the run
      timeout "${MMSIM_GPU_ACCESSES_S:-120}" "$B/mmsim" gpu accesses --out "$OUTDIR" || status=$?
      accesses_tables "$B/mmsim" "$OUTDIR"
    fi
    if stage tables; then
      timeout "${MMSIM_GPU_SWEEP_S:-540}" "$B/mmsim" gpu reproduce --out "$OUTDIR" --threads "$JOBS" \
        --max-side "${MMSIM_GPU_MAX_SIDE:-16384}" --max-scheduled-side "${MMSIM_GPU_MAX_SCHEDULED_SIDE:-16384}" \
        2>"$OUTDIR/progress.log" >/dev/null || status=$?
      # The scale goals cell by cell (needs bench.csv and bmmc.csv).
      if [ -f "$OUTDIR/bmmc.csv" ]; then
        "$B/mmsim" gpu-goals "$OUTDIR" >"$OUTDIR/goals.md" || status=$?
      fi
    fi
    if stage calibrate; then
      # The profile: microbenchmarks only, never an algorithm's timing (predict/microbench.h).
      # 260 s on an H100's 16-core host with the set of 2026-11: the timings, then eight simulated
      # fits of the L2's size; 194-211 s on two H100 hosts with the 104 benches of 2026-12 (the
      # transposed ones and the launches back to back). The limit keeps room for a slower host.
      timeout "${MMSIM_GPU_CALIBRATE_S:-570}" "$B/mmsim" gpu calibrate --out "$OUTDIR" || status=$?
      # The instruction term into the profile, where the instructions stage counted its benches.
      if [ -f "$OUTDIR/instructions.csv" ] && [ -f "$OUTDIR/instructions-ncu.csv" ]; then
        for profile in "$OUTDIR"/profile-*.json; do
          "$B/mmsim" fit-instructions "$OUTDIR" --profile "$profile" >/dev/null || status=$?
        done
      fi
    fi
    if stage validate; then
      # Predicted against measured (every table the stages above wrote: kasagi-t2, rap-t3, bmmc,
      # enumeration, as-gpu), every cost model; CPU only.
      for profile in "$OUTDIR"/profile-*.json; do
        timeout "${MMSIM_GPU_VALIDATE_S:-300}" "$B/mmsim" validate --profile "$profile" --measured "$OUTDIR" \
          --out "$OUTDIR" --threads "$JOBS" --max-n "${MMSIM_GPU_VALIDATE_MAX_N:-16777216}" \
          2>"$OUTDIR/validate-progress.log" >/dev/null || status=$?
        # parm's network below 2^20 (its larger rows take minutes each to simulate: not above).
        if [ -f "$OUTDIR/parm-gpu.csv" ]; then
          timeout "${MMSIM_GPU_VALIDATE_S:-300}" "$B/mmsim" validate --profile "$profile" --measured "$OUTDIR" \
            --families parm --min-n 4096 --max-n 65536 --threads "$JOBS" --out "$OUTDIR" --name validate-parm >/dev/null \
            2>>"$OUTDIR/validate-progress.log" || status=$?
        fi
      done
    fi
    if stage bounds; then
      # KNI Table 1's bounds beside the tables' times (CPU only); the figures where gnuplot is.
      table1_figures "$B/mmsim" "$OUTDIR" || status=$?
    fi
    if stage ncu; then
      bash cuda/ncu_rap.sh "$B/mmsim" "$OUTDIR" || true  # optional: never fails the run
    fi
    { echo "# after"; nvidia-smi --query-gpu="$SMI" --format=csv; } >>"$OUTDIR/nvidia-smi.csv" 2>&1 || true
    exit $status
    ;;
  *)
    echo "usage: ./mmsim.sh reproduce | test | test-sanitize | bench | package | explorer | gpu-reproduce" >&2
    exit 2
    ;;
esac
