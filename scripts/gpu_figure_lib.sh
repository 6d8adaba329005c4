# Shared by scripts/gpu_*_figures.sh (source it): which mmsim runs, and one GPU figure drawn.
# MMSIM names the program; by default this checkout's build/cli/mmsim, else mmsim on the PATH.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${MMSIM:-}" ]; then
  if [ -x "$ROOT/build/cli/mmsim" ]; then MMSIM=$ROOT/build/cli/mmsim; else MMSIM=mmsim; fi
fi

# gpu_figure NAME DIR COMMAND...: `mmsim COMMAND... DIR --format gnuplot` writes the folder's kept
# files (fits, .dat) and prints the variables of scripts/NAME.gp, which gnuplot then
# draws once per terminal, each in a gnuplot of its own. MMSIM_NO_PLOT=1 stops after the command.
gpu_figure() {
  local name=$1 dir=$2 vars status=0
  shift 2
  vars=$(mktemp)
  "$MMSIM" "$@" "$dir" --format gnuplot >"$vars" || status=$?
  if [ $status = 0 ] && [ "${MMSIM_NO_PLOT:-0}" != 1 ]; then
    if ! command -v gnuplot >/dev/null; then
      echo "$name: gnuplot not found (Debian package gnuplot-nox)" >&2
      status=2
    fi
    for term in png svg; do
      [ $status = 0 ] || break
      gnuplot -e "term = '$term'" "$vars" "$ROOT/scripts/$name.gp" || status=$?
    done
  fi
  rm -f "$vars"
  return $status
}
