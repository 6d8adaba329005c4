#!/usr/bin/env bash
# The teaching commands on the real binary: `access` (warps, --addr, --layout/--cell), `layout` and
# `trace`, checking the values they print, and every bad input's one line on stderr, empty stdout
# and exit status 2.
set -u
M=$1
# shellcheck source=../cli_refusals.sh
source "$(dirname "$0")/../cli_refusals.sh"

# ok COMMAND... : exit 0, stdout in $tmp/out
ok() { "$@" >"$tmp/out" 2>"$tmp/err" || fail "'$*': exit $? ($(head -1 "$tmp/err"))"; }
# has TEXT: the last output contains TEXT (a fixed string)
has() { grep -qF -- "$1" "$tmp/out" || fail "output lacks '$1'"; }
# bad PATTERN COMMAND... : exit 2, one line on stderr containing PATTERN (fixed string), empty stdout
bad() { expect_refused -qF "$@"; }
json() { tr -d ' \n' <"$tmp/out"; }

# --- access: KNI Fig. 2, explained --------------------------------------------------------------
ok "$M" access --model dmm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9
has "DMM, w = 4, latency 5: 2 warps, 3 slots, 7 time units"
has "W(0): 2 slots, congestion 2, set by bank 3 (m[7], m[15])"
has "  bank     3  1  3  0"
has "  slot     a  a  b  a"
has "  requests 1 1 0 2"
has "W0a         0          4  m[7] m[5] m[0]"
has "   6 | .    .    .    .    W1a"
ok "$M" access --model umm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9
has "UMM, w = 4, latency 5: 2 warps, 5 slots, 9 time units"
has "  group    1  1  3  0"
has "  slot     a  a  b  c"
ok "$M" access --model dmm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --json
json | grep -q '"slots":\[2,1\],"time_units":7' || fail "access --json: slots or time units"
json | grep -q '"congested_banks":\[3\],"requests_per_bank":\[1,1,0,2\]' || fail "access --json: W(0)'s banks"
json | grep -q '{"thread":2,"address":15,"bank":3,"slot":1,"merged_with":null}' || fail "access --json: thread 2"
ok "$M" access --model umm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --json
json | grep -q '"time_units":9' || fail "UMM --json: 9 time units"
json | grep -q '"requests_per_group":\[{"group":1,"requests":2},{"group":3,"requests":1},{"group":0,"requests":1}\]' ||
  fail "UMM --json: W(0)'s groups"
# Merges and inactive threads.
ok "$M" access -w 4 --warp 5,_,5,-
has "  merged          =T0"
has "T2 asks for m[5] as T0 does: 2 requests merge into one"
ok "$M" access -w 4 --warp 5,_,5,- --json
json | grep -q '{"thread":1,"address":null,"bank":null,"slot":null,"merged_with":null}' || fail "inactive thread in JSON"
json | grep -q '{"thread":2,"address":5,"bank":1,"slot":0,"merged_with":0}' || fail "merged thread in JSON"

# --- access --addr --------------------------------------------------------------------------------
ok "$M" access --model dmm -w 32 --threads 32 --addr 't*33' --json
json | grep -q '"slots":\[1\]' || fail "t*33 on the DMM: 1 slot"
ok "$M" access --model umm -w 32 --threads 32 --addr 't*33' --json
json | grep -q '"slots":\[32\]' || fail "t*33 on the UMM: 32 slots"
ok "$M" access -w 4 -l 1 --threads 16 --addr '(t%w)*w + t/w'
has "4 warps, 16 slots, 16 time units"
ok "$M" access -w 4 --threads 6 --addr 't < 4 ? t : _'
has "W(1): 0 slots (no thread requests: not dispatched)"
bad "--addr: unexpected ')' at column 5: t*33[)]" "$M" access -w 4 --addr 't*33)'
bad "--addr: division by zero at column 2: t[/]0 (thread t = 0)" "$M" access -w 4 --addr 't/0'
bad "--addr: overflow in '*' (beyond 64-bit integers) at column 6: (t+2)[*]4611686018427387904 (thread t = 0)" \
  "$M" access -w 4 --addr '(t+2)*4611686018427387904'
bad "--addr: shift count 64 outside [0, 63] at column 3: 1 [<<] 64" "$M" access -w 4 --addr '1 << 64'
bad "gives thread t = 1 the address 16777216, above 16777215" "$M" access -w 4 --addr 't*16777216'
bad "--threads: must be an integer in [1, 2^16]" "$M" access -w 4 --threads 0 --addr t
bad "--threads: only with --addr or --cell" "$M" access -w 4 --threads 4 --warp 1,2,3,4
bad "give the access one way" "$M" access -w 4 --addr t --warp 1,2,3,4
bad "give the access one way" "$M" access -w 4

# --- access --warp: the count of fields is checked ------------------------------------------------
bad "fewer than w = 4: give every thread an address or _ (inactive)" "$M" access -w 4 --warp 1,2,3
bad "field 2 is empty (write _ for an inactive thread)" "$M" access -w 4 --warp 1,2,,3
bad "field 4 is empty" "$M" access -w 4 --warp 1,2,3,4,
bad "more than w" "$M" access --model dmm -w 2 --warp 1,2,3
bad "not an address" "$M" access --model dmm -w 4 --warp 1,zz,3,4
bad "--model: must be dmm or umm" "$M" access --model xmm --warp 1,2

# --- access --layout --cell -------------------------------------------------------------------------
ok "$M" access --layout xor -w 8 --cell 't, t'
has "layout: xor (w x w matrix, w = 8)"
has "W(0): 8 slots, congestion 8, set by bank 0"
has "  cell    (0,0) (1,1) (2,2)"
ok "$M" access --layout raw -w 8 --cell 't, 0' --json
json | grep -q '"slots":\[8\]' || fail "raw stride: 8 slots"
ok "$M" access --layout rap -w 8 --cell 't, 0' --json
json | grep -q '"slots":\[1\]' || fail "rap stride: 1 slot"
ok "$M" access --layout rap -w 4 --seed 1 --cell 'j, i' --threads 16
has "layout: rap (w x w matrix, w = 4, seed 1: r = 0 1 3 2)"
ok "$M" access --layout w2p -w 4 --cell '0, 0, t, 0' --json
json | grep -q '"cell":\[0,0,3,0\]' || fail "w^4 cell in JSON"
for l in raw ras rap pad xor; do ok "$M" access --layout $l -w 4 --cell 't, (t + 1) % w'; done
for l in raw ras 1p r1p 3p w2p 1pw2r; do ok "$M" access --layout $l -w 4 --cell 't, 1, 2, t'; done
bad "--layout: unknown '1p' for a w x w matrix" "$M" access --layout 1p -w 4 --cell 't, t'
bad "--layout: unknown 'rap' for a w^4 array" "$M" access --layout rap -w 4 --cell 't, t, t, t'
bad "has 3 coordinates" "$M" access --layout raw -w 4 --cell 't, t, t'
bad "the cell (0, 4), outside 0 .. w-1 = 3" "$M" access --layout raw -w 4 --cell '0, t + 1' --threads 4
bad "--cell: unexpected ',' at column 4: t, [,] t" "$M" access --layout raw -w 4 --cell 't, , t'
bad "--layout and --cell go together" "$M" access --layout raw -w 4 --addr t
bad "--seed: only with --layout" "$M" access -w 4 --seed 3 --addr t

# --- layout -----------------------------------------------------------------------------------------
ok "$M" layout --layout raw -w 4
has "0 | 0 1 2 3"
has "3 | 0 1 2 3"
ok "$M" layout --layout pad -w 4
has "1 | 1 2 3 0"
ok "$M" layout --layout xor -w 4
has "3 | 3 2 1 0"
ok "$M" layout --layout rap -w 4 --seed 1
has "rap (w x w matrix, w = 4, seed 1: r = 0 1 3 2)"
has "2 | 3 0 1 2"
ok "$M" layout --layout rap -w 4 --seed 1 --color always
grep -q $'\033\[30;48;5;' "$tmp/out" || fail "layout --color always: no ANSI colours"
ok "$M" layout --layout rap -w 4 --seed 1
grep -q $'\033' "$tmp/out" && fail "layout: ANSI colours when stdout is not a terminal"
ok "$M" layout --layout rap -w 4 --seed 1 --json
json | grep -q '"banks":\[\[0,1,2,3\],\[1,2,3,0\],\[3,0,1,2\],\[2,3,0,1\]\]' || fail "layout --json banks"
ok "$M" layout --layout 1p -w 3 --dims 4
has "a[2][2][k][l]:"
ok "$M" layout --layout w2p -w 16 --dims 4 --slice 3,4 --json
json | grep -q '"slice":\[3,4\]' || fail "layout --slice in JSON"
for l in raw ras rap pad xor; do ok "$M" layout --layout $l -w 8 --svg "$tmp/$l.svg"; grep -q '</svg>' "$tmp/$l.svg" || fail "$l.svg"; done
for l in raw ras 1p r1p 3p w2p 1pw2r; do ok "$M" layout --layout $l -w 4 --dims 4 --svg "$tmp/$l-4.svg"; done
bad "--layout: unknown 'zz'" "$M" layout --layout zz -w 4
bad "-w: a layout needs 2 <= w <= 65536 (got 1)" "$M" layout --layout raw -w 1
bad "more than the 65536 a picture shows" "$M" layout --layout raw -w 300
bad "or one slice (--slice I,J)" "$M" layout --layout raw -w 32 --dims 4
bad "--slice: only for --dims 4" "$M" layout --layout raw -w 4 --slice 1,1
bad "--slice: each of I,J must be below w = 4" "$M" layout --layout raw -w 4 --dims 4 --slice 1,4
bad "--color: must be auto, always or never" "$M" layout --layout raw -w 4 --color pink
# An output that cannot be written is refused before the work: status 2, with its one line.
bad "--svg: folder '/nonexistent/dir' does not exist" "$M" layout --layout raw -w 4 --svg /nonexistent/dir/x.svg

# --- trace --------------------------------------------------------------------------------------------
ok "$M" run d-designated -n 1024 --trace "$tmp/d.csv"
ok "$M" trace "$tmp/d.csv" --svg "$tmp/d.svg"
has "701 slots in 3 rounds over 998 time units; no two rounds overlap (round-synchronous)"
has "    2  d-designated  write b  b      global  write     32    637     262        997"
has "pipeline diagram left out: 100 pipeline stages"
grep -q '</svg>' "$tmp/d.svg" || fail "trace --svg"
ok "$M" trace "$tmp/d.csv" --json
json | grep -q '"slots":701,"time_units":998,"overlapping":false' || fail "trace --json summary"
ok "$M" run transpose --perm transpose -n 64 -w 4 -k 2 -L 3 --async --trace "$tmp/a.csv"
ok "$M" trace "$tmp/a.csv"
has "rounds overlap in time (asynchronous execution)"
has "     | global                 | shared0| shared1|"
has "  16 | 3:W0a   0:W15a  0:W14a | 2:W9a  | 1:W13a |"
ok "$M" trace - <"$tmp/a.csv"
has "64 slots in 4 rounds over 34 time units"
head -3 "$tmp/d.csv" >"$tmp/bad.csv"; echo "0,d-designated,read a,a,read,global,3,0,3,102" >>"$tmp/bad.csv"
bad "trace '$tmp/bad.csv': line 4: 10 fields, expected 11" "$M" trace "$tmp/bad.csv"
sed '5s/,global,/,shared9,/' "$tmp/d.csv" >"$tmp/bad2.csv"
bad "line 5: round 0 mixes the global memory and a shared memory" "$M" trace "$tmp/bad2.csv"
bad "trace: cannot read" "$M" trace "$tmp/none.csv"
bad "--width: must be an integer in [200, 20000]" "$M" trace "$tmp/d.csv" --width 5

# --- access --sectors: the GPU's sectors and lines beside the UMM's groups ---------------------------
ok "$M" access --model umm -w 32 -l 1 --addr 't + 1'
cp "$tmp/out" "$tmp/plain.txt"
grep -q sector "$tmp/plain.txt" && fail "access without --sectors speaks of sectors"
ok "$M" access --model umm -w 32 -l 1 --addr 't + 1' --sectors
head -c "$(wc -c <"$tmp/plain.txt")" "$tmp/out" | cmp -s - "$tmp/plain.txt" || fail "--sectors changed the papers' view"
has "W(0) sectors: 5 in 2 lines; ideal 4 in 1 line (128 bytes asked, 160 moved: 80% used)"
has "  bytes asked 28 32 32 32  4"
ok "$M" access --model umm -w 32 -l 1 --addr '2*t' --element-bytes 8 --sectors
has "W(0) sectors: 16 in 4 lines; ideal 8 in 2 lines (256 bytes asked, 512 moved: 50% used)"
ok "$M" access --model umm -w 32 -l 1 --addr '4*t' --vector 4 --sectors
has "W(0) sectors: 16 in 4 lines; ideal 16 in 4 lines (512 bytes asked, 512 moved: 100% used), coalesced"
ok "$M" access --model umm -w 32 -l 1 --addr 't < 16 ? t : _' --sectors --json
json | grep -q '"sectors":2,"lines":1,"ideal_sectors":2,"ideal_lines":1,"bytes_asked":64,"bytes_moved":64' ||
  fail "access --sectors --json: the half-idle warp's counts"
json | grep -q '"thread":16,"address":null,"group":null,"slot":null,"merged_with":null,"sectors":null' ||
  fail "access --sectors --json: an inactive thread"
ok "$M" access --model umm -w 32 -l 1 --addr 't' --json
json | grep -q '"sector' && fail "access --json without --sectors has sector keys"
ok "$M" access --model umm -w 4 -l 5 --warp 7,5,15,0 --warp 10,11,12,9 --sectors --svg "$tmp/sectors.svg"
grep -q 'W(1): 1 sector in 1 line' "$tmp/sectors.svg" || fail "access --sectors --svg"
grep -q '</svg>' "$tmp/sectors.svg" || fail "access --sectors --svg: not closed"
ok "$M" access --model umm -w 32 -l 1 --addr 't % 4' --op atomic-add --sectors
has "W(0) sectors: 1 in 1 line; ideal 1 in 1 line (16 bytes asked, 32 moved: 50% used), coalesced"
has "  8 sector transactions: per sector, the most threads on one of its addresses"
bad "--sectors: only with --model umm" "$M" access --model dmm -w 4 --warp 7,5,15,0 --sectors
bad "--svg: only with --layout" "$M" access --model umm -w 4 --warp 7,5,15,0 --svg "$tmp/x.svg"
bad "--tile-warp: only with --layout" "$M" access --model umm -w 4 --warp 7,5,15,0 --sectors --tile-warp 0

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all teaching CLI checks passed"
