# Sourced by the cuda/ncu_*.sh steps of `./mmsim.sh gpu-reproduce`.
# find_ncu: NCU = Nsight Compute's command-line tool, on PATH or where the CUDA toolkit puts it;
# empty where there is none.
find_ncu() {
  NCU=$(command -v ncu || true)
  [ -z "$NCU" ] && [ -x /usr/local/cuda/bin/ncu ] && NCU=/usr/local/cuda/bin/ncu
}
# need_ncu SCRIPT WHAT: find_ncu, or say that WHAT is skipped and exit 0 (the steps are optional:
# they never fail their caller).
need_ncu() {
  find_ncu
  if [ -z "$NCU" ]; then
    echo "$1: no Nsight Compute (ncu) here; $2 skipped" >&2
    exit 0
  fi
}
