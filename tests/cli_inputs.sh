#!/usr/bin/env bash
# Hostile inputs end promptly: every input file that is not a regular file (a FIFO, /dev/zero, a
# folder, a socket), larger than its run implies, or with a huge line; every integer option given a
# sign, nothing, or a value past its range; every size option that would run for hours or exhaust
# memory. Each case must exit 2 with one line on stderr naming the culprit, nothing on stdout, within
# `timeout 20` (a hang is a failure, not a wait). Also: large `access` diagrams switch to a summary.
set -u
mmsim=$1
# shellcheck source=cli_scratch.sh
source "$(dirname "$0")/cli_scratch.sh"

# refused PATTERN COMMAND...: exit 2 within 20 s, one stderr line (at most 300 characters)
# containing PATTERN, empty stdout.
refused() {
  local pattern=$1; shift
  timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local status=$?
  local what="'$*'"
  if [ "$status" = 124 ]; then say_fail "$what: still running after 20 s"; return; fi
  [ "$status" = 2 ] || say_fail "$what: exit $status, wanted 2 ($(head -c 300 "$tmp/err"))"
  [ -s "$tmp/out" ] && say_fail "$what: printed on stdout"
  [ "$(wc -l <"$tmp/err")" = 1 ] || say_fail "$what: stderr has $(wc -l <"$tmp/err") lines"
  [ "$(wc -c <"$tmp/err")" -le 300 ] || say_fail "$what: a message of $(wc -c <"$tmp/err") bytes"
  grep -qF -- "$pattern" "$tmp/err" || say_fail "$what: stderr '$(head -c 300 "$tmp/err")' lacks '$pattern'"
}

cd "$tmp"
mkfifo fifo
mkdir folder
have_socket=0
if python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")' 2>/dev/null; then have_socket=1; fi
printf '0\n1\n2\n3\n' >perm4

# 1. Files are read safely: only regular files, each kind named.
kinds=("fifo:is a FIFO" "/dev/zero:is a character device" "folder:is a folder")
[ $have_socket = 1 ] && kinds+=("sock:is a socket")
for kind in "${kinds[@]}"; do
  f=${kind%%:*} says=${kind#*:}
  refused "--perm-file: '$f' $says" "$mmsim" run s-designated --perm-file "$f" -n 1024
  refused "--perm-file: '$f' $says" "$mmsim" schedule --perm-file "$f" -n 1024 -o "$tmp/x.sch"
  refused "--perm-file: '$f' $says" "$mmsim" bench-schedule --perm-file "$f" -n 1024
  refused "--schedule: '$f' $says" "$mmsim" run scheduled --perm random -n 1024 --schedule "$f"
  refused "--matrix: '$f' $says" "$mmsim" run bmmc --matrix "$f"
  refused "--keys-file: '$f' $says" "$mmsim" run as-sort -w 4 -m 4 --keys-file "$f"
  refused "sweep: '$f' $says" "$mmsim" sweep "$f" -o "$tmp/s.csv"
  refused "trace: '$f' $says" "$mmsim" trace "$f"
done
refused "--perm-file: cannot read 'missing': No such file" "$mmsim" run s-designated --perm-file missing -n 4

# A file larger than its run implies is refused from its size, before a byte is read (sparse: no disk).
truncate -s 4G huge
refused "--perm-file: 'huge' has 4 GiB, more than the 65 KiB that n = 1024 allows" \
  "$mmsim" run s-designated --perm-file huge -n 1024
refused "--schedule: 'huge' has 4 GiB" "$mmsim" run scheduled --perm random -n 1024 --schedule huge
refused "--matrix: 'huge' has 4 GiB" "$mmsim" run bmmc --matrix huge
refused "--keys-file: 'huge' has 4 GiB" "$mmsim" run as-sort -w 4 -m 4 --keys-file huge
refused "sweep: 'huge' has 4 GiB" "$mmsim" sweep huge -o "$tmp/s.csv"
refused "trace: 'huge' has 4 GiB" "$mmsim" trace huge
# A first line of 10 million characters: cut in the message, not echoed whole.
python3 -c 'import sys; sys.stdout.write("7" * 10_000_000 + "\n")' >longline
refused "longline:1: longer than 64 characters: '7777" "$mmsim" run s-designated --perm-file longline -n 1024000
python3 -c 'import sys; sys.stdout.write("x" * 1_000_000 + "\n")' >longkeys
refused "--keys-file: 'longkeys' line 1: longer than 64" "$mmsim" run as-sort -w 4 -m 16384 --keys-file longkeys
# Control bytes in quoted content are shown as '?', keeping the message one printable line.
printf '0\n\033[2J\001\n' >ctrl
refused "ctrl:2: not a number: '?[2J?'" "$mmsim" run s-designated --perm-file ctrl -n 4
# The standard input of `mmsim trace -` may be a pipe, read with the same bound.
printf 'garbage\n' | timeout 20 "$mmsim" trace - >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && grep -qF "trace '-': line 1: expected the header" "$tmp/err" || say_fail "trace -: $(cat "$tmp/err")"

# 2. Numbers are checked as written, in every command.
refused "--seed: must be an integer in [0, 2^63 - 1] (got '-1')" "$mmsim" run s-designated --perm random -n 64 --seed -1
refused "(got '18446744073709551616')" "$mmsim" run s-designated --perm random -n 64 --seed 18446744073709551616
refused "--seed: must be" "$mmsim" run s-designated --perm random -n 64 --seed ''
for t in rap-t1 rap-t2 rap-t4; do refused "table $t: -w is not an option of this table" "$mmsim" table $t -w 0; done
refused "--band: must be" "$mmsim" run transpose-ip-v1b --order 64 --band 2147483648
refused "--page-cells: must be" "$mmsim" run transpose-ip-v1 --order 64 --page-cells 4294967296
refused "--seed: must be" "$mmsim" access --layout rap --cell 't, t' --seed -1
refused "--seed: must be" "$mmsim" access --layout rap --cell 't, t' --seed 18446744073709551616
refused "--width: must be" "$mmsim" access -w -4 --addr t
refused "--latency: must be" "$mmsim" access -l '' --addr t
refused "--threads: must be" "$mmsim" access --addr t --threads 0
refused "--seed: must be" "$mmsim" layout --layout rap --seed -1
refused "--dims: must be" "$mmsim" layout --layout rap --dims 3
refused "--seed: must be" "$mmsim" congestion --seed -1
refused "--trials: must be" "$mmsim" congestion --trials ''
refused "-n: must be" "$mmsim" schedule --perm random -n -1024 -o "$tmp/x.sch"
refused "--seed: must be" "$mmsim" bench-schedule --seed -1
refused "--width: must be" "$mmsim" trace perm4 --width 99999999999999999999
refused "-n: must be" "$mmsim" bench -n ''

# 3. Work is bounded up front, and the option that sets it is named.
refused "--repeats: must be an integer in [1, 100]" "$mmsim" bench --repeats 2147483647
refused "-k: must be" "$mmsim" run d-designated --perm random -n 1024 -k 100000000 --async
refused "-k: must be" "$mmsim" run d-designated --perm random -n 1024 -k 2147483647
refused "--trials: must be" "$mmsim" table rap-t1 --trials 16777216
refused "-n: must be" "$mmsim" table kasagi-t1 -n 67108864
refused "table enumeration-tlb: -w: must be an integer in [8, 64]" "$mmsim" table enumeration-tlb -w 3
refused "as-sort: -w, -m: about" "$mmsim" run as-sort -w 32 -m 65536
# A run whose memory would pass what this machine has is refused with its estimate, naming -n.
refused "row-wise: -n 268435456: needs about" env MMSIM_MEMORY_LIMIT=1073741824 \
  "$mmsim" run row-wise --perm random -n 268435456
# A trace holds a round's slots until the round is written: its memory counts, and --trace is named.
refused "d-designated: -n 8388608 with --trace: needs about" env MMSIM_MEMORY_LIMIT=1073741824 \
  "$mmsim" run d-designated --perm random -n 8388608 --trace "$tmp/t.csv"
[ -e "$tmp/t.csv" ] && say_fail "a refused traced run left its trace file"

# `access` with a long latency: a summary instead of a diagram as wide as the latency, at once.
timeout 20 "$mmsim" access -w 4 -l 100000 --warp 0,1,2,3 --warp 4,5,6,7 >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 0 ] || say_fail "access -l 100000: exit $status ($(head -c 300 "$tmp/err"))"
[ "$(wc -c <"$tmp/out")" -le 20000 ] || say_fail "access -l 100000: $(wc -c <"$tmp/out") bytes of output"
grep -q "100001 time units" "$tmp/out" || say_fail "access -l 100000: no time units in: $(head -c 300 "$tmp/out")"
grep -q "pipeline diagram left out" "$tmp/out" || say_fail "access -l 100000: no summary said"

exit $fail
