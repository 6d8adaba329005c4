#!/usr/bin/env bash
# cmake --install into a fresh prefix; then the files the prefix must hold, the installed program's
# --version and KNI Fig. 2, and its man page. Leaves the prefix for example_installed.
#   install_tree.sh BUILD PREFIX VERSION PYTHON(ON|OFF)
set -u
build=$1 prefix=$2 version=$3 python=$4
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >"$build/install_tree.log" 2>&1 || { cat "$build/install_tree.log"; exit 1; }

libdir=$(cd "$prefix" && ls -d lib*/cmake/mmsim 2>/dev/null | head -1 | sed 's,/cmake/mmsim,,')
[ -n "$libdir" ] || fail "no lib*/cmake/mmsim under $prefix"
for f in bin/mmsim share/man/man1/mmsim.1.gz include/mmsim/sim/engine.h include/mmsim/models/machines.h \
         include/mmsim/algorithms/registry.h include/mmsim/algorithms/run_output.h include/mmsim/report/json.h \
         include/mmsim/predict/gpu_profile.h include/mmsim/models/gpu_memory/gpu_memory.h include/mmsim/trace.cuh \
         "$libdir/cmake/mmsim/mmsimConfig.cmake" "$libdir/cmake/mmsim/mmsimConfigVersion.cmake" \
         "$libdir/cmake/mmsim/mmsimTargets.cmake"; do
  [ -e "$prefix/$f" ] || fail "missing $f"
done
for lib in sim models report algorithms predict experiments; do
  [ -e "$prefix/$libdir/libmmsim_$lib.a" ] || fail "missing $libdir/libmmsim_$lib.a"
done
# The CUDA backend's libraries and headers and the test helpers stay out (the CPU side's GPU-like
# memory and GPU profile, models/gpu_memory and predict/gpu_*.h, are part of the libraries).
extra=$(cd "$prefix" && find . -name 'libmmsim_gpu*' -o -path './include/mmsim/cuda*' -o -name '*test*' \
  -o -name '*warnings*' | head -3)
[ -z "$extra" ] || fail "installed what should stay in the build: $extra"
if [ "$python" = ON ]; then
  ls "$prefix"/lib/python3/dist-packages/mmsim/_mmsim*.so >/dev/null 2>&1 || fail "missing the Python extension"
  [ -e "$prefix/lib/python3/dist-packages/mmsim/__init__.py" ] || fail "missing the Python package"
fi
grep -q "PACKAGE_VERSION \"$version\"" "$prefix/$libdir/cmake/mmsim/mmsimConfigVersion.cmake" ||
  fail "mmsimConfigVersion.cmake does not say $version"
# Exported targets name only the install tree, never the source or build folders, and need neither
# MPI nor CUDA (those are the program's).
if grep -q -e "$build" "$prefix/$libdir"/cmake/mmsim/*.cmake; then fail "the CMake package names the build folder"; fi
if grep -qiE "MPI::|CUDA::" "$prefix/$libdir"/cmake/mmsim/*.cmake; then fail "the CMake package needs MPI or CUDA"; fi

mmsim=$prefix/bin/mmsim
out=$("$mmsim" --version) || fail "mmsim --version exited $?"
[ "$(echo "$out" | head -1)" = "mmsim $version" ] || fail "--version first line: $(echo "$out" | head -1)"
echo "$out" | grep -Eq '^commit: ([0-9a-f]{12,40}(-dirty)?|unknown)$' || fail "--version lacks the commit: $out"
echo "$out" | grep -Eq '^CUDA backend: (on|off)$' || fail "--version lacks the CUDA backend: $out"
t=$("$mmsim" access --model dmm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --json | grep -o '"time_units": [0-9]*')
[ "$t" = '"time_units": 7' ] || fail "installed mmsim access (DMM, Fig. 2): $t, expected 7"
t=$("$mmsim" access --model umm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --json | grep -o '"time_units": [0-9]*')
[ "$t" = '"time_units": 9' ] || fail "installed mmsim access (UMM, Fig. 2): $t, expected 9"

# The man page: troff with a section per command the program lists, and every algorithm of run.
page=$(gzip -dc "$prefix/share/man/man1/mmsim.1.gz") || fail "man page is not gzip"
echo "$page" | grep -q '^\.TH MMSIM 1 ' || fail "man page lacks .TH"
for cmd in $("$mmsim" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}'); do
  echo "$page" | grep -qF ".SS \"mmsim ${cmd//-/\\-}\"" || fail "man page lacks the command $cmd"
done
for algo in $("$mmsim" run --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}'); do
  echo "$page" | grep -qF ".SS \"mmsim run ${algo//-/\\-}\"" || fail "man page lacks the algorithm $algo"
done
if command -v groff >/dev/null; then
  warnings=$(echo "$page" | groff -man -Tutf8 -ww -z 2>&1)
  [ -z "$warnings" ] || fail "groff warns on the man page: $warnings"
fi

[ "$failures" -eq 0 ] && echo "install_tree: $prefix holds and runs what it should"
exit $((failures > 0))
