#!/usr/bin/env bash
# The Debian packages as cpack makes them: their fields, that every package they depend on is
# installed here at a version that satisfies it (what `dpkg -i` checks first), and their files
# unpacked (dpkg -x) into a scratch root, where the program runs KNI Fig. 2 and, where
# built, the Python module does the same. Nothing is installed on this machine.
#   deb_package.sh BUILD OUT PYTHON (the interpreter the module is built for, or OFF)
set -u
build=$1 out=$2 python=$3
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v $tool >/dev/null || { echo "skipped: $tool is not installed (dpkg-dev)"; exit 77; }
done

rm -rf "$out"
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out") >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/mmsim_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { cat "$out/cpack.log"; echo "FAIL: no mmsim_*.deb"; exit 1; }

# check_depends DEB: each dependency (first alternative) installed at a satisfying version.
check_depends() {
  local depends
  depends=$(dpkg-deb --field "$1" Depends)
  [ -n "$depends" ] || { fail "$(basename "$1") has no Depends (dpkg-shlibdeps did not run)"; return; }
  local name op version installed
  while read -r name op version; do
    installed=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null) || { fail "$(basename "$1") needs $name, not installed"; continue; }
    if [ -n "$op" ] && ! dpkg --compare-versions "$installed" "$op" "$version"; then
      fail "$(basename "$1") needs $name $op $version, installed $installed"
    fi
  done < <(echo "$depends" | tr ',' '\n' | sed 's/|.*//' | tr -d '()')
}

[ "$(dpkg-deb --field "$deb" Package)" = mmsim ] || fail "package name"
check_depends "$deb"
echo "$(basename "$deb"): Depends: $(dpkg-deb --field "$deb" Depends)"
root=$out/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x"
for f in usr/bin/mmsim usr/share/man/man1/mmsim.1.gz usr/include/mmsim/sim/engine.h; do
  [ -e "$root/$f" ] || fail "the package lacks /$f"
done
ls "$root"/usr/lib*/cmake/mmsim/mmsimConfig.cmake >/dev/null 2>&1 ||
  ls "$root"/usr/lib/*/cmake/mmsim/mmsimConfig.cmake >/dev/null 2>&1 || fail "the package lacks the CMake package"
t=$("$root/usr/bin/mmsim" access --model dmm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --json | grep -o '"time_units": [0-9]*')
[ "$t" = '"time_units": 7' ] || fail "packaged mmsim access (DMM, Fig. 2): $t, expected 7"
"$root/usr/bin/mmsim" --version | head -1 | grep -q '^mmsim ' || fail "packaged mmsim --version"

if [ "$python" != OFF ]; then
  pydeb=$(ls "$out"/python3-mmsim_*.deb 2>/dev/null | head -1)
  if [ -z "$pydeb" ]; then
    fail "no python3-mmsim_*.deb"
  else
    check_depends "$pydeb"
    echo "$(basename "$pydeb"): Depends: $(dpkg-deb --field "$pydeb" Depends)"
    dpkg-deb -x "$pydeb" "$root" || fail "dpkg-deb -x python3-mmsim"
    PYTHONPATH=$root/usr/lib/python3/dist-packages "$python" -c '
import mmsim
assert mmsim.__file__.startswith("'"$root"'"), mmsim.__file__
warps = [[7, 5, 15, 0], [10, 11, 12, 9]]
assert mmsim.access("umm", 4, 5, warps)["time_units"] == 9
' || fail "the packaged Python module"
  fi
fi
[ "$failures" -eq 0 ] && echo "deb_package: $(cd "$out" && ls ./*.deb | tr '\n' ' ')build, depend on what is here, and run"
exit $((failures > 0))
