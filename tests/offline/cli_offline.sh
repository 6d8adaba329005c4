#!/usr/bin/env bash
# CLI checks of the offline permutation suite: runs that work, and bad input that exits 2 with one
# line on stderr.
set -u
mmsim="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

ok() {  # ok DESCRIPTION COMMAND...: exit 0 and "output correct: yes" when it runs an algorithm
  local what="$1"; shift
  if ! "$@" >"$tmp/out" 2>"$tmp/err"; then echo "FAIL (exit $?): $what"; cat "$tmp/err"; fail=1; return; fi
  if [[ "$2" == run ]] && ! grep -q "output correct: *yes" "$tmp/out"; then echo "FAIL (not correct): $what"; fail=1; fi
}

bad() {  # bad DESCRIPTION COMMAND...: exit 2 with exactly one line on stderr
  local what="$1"; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [[ $rc -ne 2 || $lines -ne 1 ]]; then echo "FAIL (exit $rc, $lines stderr lines): $what"; cat "$tmp/err"; fail=1; fi
}

ok "scheduled on 96^2" "$mmsim" run scheduled --perm random -n 9216 -w 32
ok "transpose" "$mmsim" run transpose --perm transpose -n 4096 -w 8
ok "shuffle" "$mmsim" run shuffle --perm shuffle -n 2048 -w 8 -k 3
ok "bit-reversal async" "$mmsim" run bit-reversal --perm bit-reversal -n 4096 -w 16 --async
ok "row-wise random" "$mmsim" run row-wise --perm random -n 4096 -w 8
ok "column-wise identical" "$mmsim" run column-wise --perm identical -n 4096 -w 8
ok "schedule file" "$mmsim" schedule --perm random -n 4096 -w 8 -o "$tmp/s.sched"
ok "scheduled from file" "$mmsim" run scheduled --perm random -n 4096 -w 8 --schedule "$tmp/s.sched"
"$mmsim" run scheduled --perm random -n 4096 -w 8 --schedule "$tmp/s.sched" --json >"$tmp/out" 2>&1
grep -q '"correct": *true' "$tmp/out" || { echo "FAIL: json run from a schedule file not correct"; fail=1; }
seq 4095 -1 0 >"$tmp/rev.txt"
ok "schedule from a permutation file" "$mmsim" schedule --perm-file "$tmp/rev.txt" -n 4096 -w 8 -o "$tmp/rev.sched"
ok "scheduled from a permutation file" "$mmsim" run scheduled --perm-file "$tmp/rev.txt" -n 4096 -w 8 --schedule "$tmp/rev.sched"

bad "schedule for another permutation" "$mmsim" run scheduled --perm random --seed 2 -n 4096 -w 8 --schedule "$tmp/s.sched"
bad "schedule for another w" "$mmsim" run scheduled --perm random -n 4096 -w 4 --schedule "$tmp/s.sched"
bad "schedule for another n" "$mmsim" run scheduled --perm random -n 1024 -w 8 --schedule "$tmp/s.sched"
head -c 1000 "$tmp/s.sched" >"$tmp/trunc.sched"
bad "truncated schedule" "$mmsim" run scheduled --perm random -n 4096 -w 8 --schedule "$tmp/trunc.sched"
cp "$tmp/s.sched" "$tmp/corrupt.sched"
printf '\x55' | dd of="$tmp/corrupt.sched" bs=1 seek=5000 conv=notrunc status=none
bad "corrupted schedule" "$mmsim" run scheduled --perm random -n 4096 -w 8 --schedule "$tmp/corrupt.sched"
bad "missing schedule" "$mmsim" run scheduled --perm random -n 4096 -w 8 --schedule "$tmp/none.sched"
bad "schedule given to transpose" "$mmsim" run transpose --perm transpose -n 4096 -w 8 --schedule "$tmp/s.sched"
bad "scheduled, n not a square" "$mmsim" run scheduled --perm random -n 1000 -w 32
bad "scheduled, sqrt(n) not a multiple of w" "$mmsim" run scheduled --perm random -n 1600 -w 32
bad "transpose of another permutation" "$mmsim" run transpose --perm shuffle -n 4096 -w 8
bad "shuffle, w not a power of two" "$mmsim" run shuffle --perm shuffle -n 4096 -w 12
bad "row-wise of a permutation across rows" "$mmsim" run row-wise --perm transpose -n 4096 -w 8
bad "schedule without -o" "$mmsim" schedule --perm random -n 4096 -w 8
bad "schedule without a permutation" "$mmsim" schedule -n 4096 -w 8 -o "$tmp/x.sched"
bad "schedule, bad n" "$mmsim" schedule --perm random -n 4000 -w 8 -o "$tmp/x.sched"
bad "schedule, unwritable output" "$mmsim" schedule --perm random -n 4096 -w 8 -o "$tmp/no/such/dir/x.sched"

# Table 1 at a small setting: difference 0 on every row that ran.
if "$mmsim" table kasagi-t1 -n 4096 -w 8 -L 13 -k 3 --format csv >"$tmp/t1.csv" 2>"$tmp/err"; then
  rows=$(awk -F, 'NR > 1 && $12 != "" { n++; if ($12 != 0) bad++ } END { print n + 0, bad + 0 }' "$tmp/t1.csv")
  [[ "$rows" == "8 0" ]] || { echo "FAIL: kasagi-t1 rows/differences: $rows"; cat "$tmp/t1.csv"; fail=1; }
else
  echo "FAIL: kasagi-t1"; cat "$tmp/err"; fail=1
fi
"$mmsim" list | grep -q "scheduled" || { echo "FAIL: list lacks scheduled"; fail=1; }
exit $fail
