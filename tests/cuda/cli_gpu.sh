#!/usr/bin/env bash
# CLI checks of `mmsim gpu bmmc`, `enumeration`, `sorting`, `calibrate` and `parm` that need no GPU: help, and bad input
# giving exit status 2 with one line on stderr before the device is touched.
set -u
mmsim="$1"
# shellcheck source=../cli_lib.sh
source "$(dirname "$0")/../cli_lib.sh"
has() { if ! grep -q -- "$1" "$tmp/$2"; then echo "FAIL: $2 lacks '$1'"; cat "$tmp/$2"; fail=1; fi; }

ok "$mmsim" gpu bmmc --help
has "--max-bits" out
ok "$mmsim" gpu enumeration --help
has "--heat-max" out
ok "$mmsim" gpu sorting --help
has "--ncu-csv" out

# bmmc and parm share --min-bits and --max-bits (cli/gpu_common.h).
for c in bmmc parm; do
  bad "$mmsim" gpu $c --min-bits 11
  has "--min-bits" err
  bad "$mmsim" gpu $c --max-bits 31
done
bad "$mmsim" gpu bmmc --min-bits 25 --max-bits 20
bad "$mmsim" gpu bmmc --runs 19
bad "$mmsim" gpu bmmc --warmup -1
bad "$mmsim" gpu bmmc --threads 0
bad "$mmsim" gpu bmmc --budget-s 0
bad "$mmsim" gpu bmmc --min-bits twenty
bad "$mmsim" gpu bmmc --out ""
bad "$mmsim" gpu bmmc --no-such-option 1

bad "$mmsim" gpu enumeration --runs 0
has "--runs" err
bad "$mmsim" gpu enumeration --warmup 101
bad "$mmsim" gpu enumeration --region 0
bad "$mmsim" gpu enumeration --heat-step 16
bad "$mmsim" gpu enumeration --heat-step 4096 --heat-max 1024
bad "$mmsim" gpu enumeration --heat-step 32 --heat-max 65536
bad "$mmsim" gpu enumeration --max-order 99999999
bad "$mmsim" gpu enumeration --band -3
bad "$mmsim" gpu sorting --min-m 3
has "--min-m" err
bad "$mmsim" gpu sorting --max-m 131072
bad "$mmsim" gpu sorting --min-m 8 --max-m 4
bad "$mmsim" gpu sorting --runs 0
bad "$mmsim" gpu sorting --warmup 1001
bad "$mmsim" gpu sorting --max-instances 2000000
bad "$mmsim" gpu sorting --ncu-launches --ncu-csv x.csv
bad "$mmsim" gpu sorting --ncu-csv "$tmp/no-such.csv" --out "$tmp/o"
has "--ncu-csv" err
# --out under a plain file cannot be created: bad input, found before any GPU work.
touch "$tmp/file"
bad "$mmsim" gpu enumeration --out "$tmp/file/sub"
has "--out" err
bad "$mmsim" gpu bmmc --out "$tmp/file/sub"

ok "$mmsim" gpu calibrate --help
has "calibration-<device>.csv" out
bad "$mmsim" gpu calibrate --out "$tmp/file/sub"
has "--out" err
bad "$mmsim" gpu calibrate --out ""
bad "$mmsim" gpu calibrate --runs 5

ok "$mmsim" gpu parm --help
has "--sim-max-bits" out
bad "$mmsim" gpu parm --min-bits 20 --max-bits 14
bad "$mmsim" gpu parm --sim-max-bits 21
bad "$mmsim" gpu parm --runs 0
bad "$mmsim" gpu parm --out "$tmp/file/sub"

exit $fail
