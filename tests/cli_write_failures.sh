#!/usr/bin/env bash
# Nothing is lost silently: a write that fails (a full device, a closed pipe, a file size limit) is
# status 1 with one line on stderr, never a run reported as done; an interrupted write never leaves
# a truncated file under the real name (the old file stays, or none appears); special files that
# cannot be renamed into (/dev/null, /dev/stdout, a FIFO) still work as outputs.
set -u
mmsim=$1
# shellcheck source=cli_scratch.sh
source "$(dirname "$0")/cli_scratch.sh"

# failed_write STDOUT PATTERN COMMAND...: with stdout to STDOUT, exit 1, exactly one stderr line
# containing PATTERN.
failed_write() {
  local to=$1 pattern=$2; shift 2
  "$@" >"$to" 2>"$tmp/err"
  local status=$?
  [ "$status" = 1 ] || say_fail "'$*': exit $status, wanted 1 ($(cat "$tmp/err"))"
  [ "$(wc -l <"$tmp/err")" = 1 ] || say_fail "'$*': stderr has $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
  grep -qF -- "$pattern" "$tmp/err" || say_fail "'$*': stderr '$(cat "$tmp/err")' lacks '$pattern'"
}
small=(run d-designated --perm identical -n 64)

# A full device, for every kind of output.
failed_write /dev/full "cannot write standard output: No space left on device" "$mmsim" list --json
failed_write /dev/full "cannot write standard output: No space left on device" "$mmsim" list
failed_write "$tmp/out" "--trace: cannot write '/dev/full': No space left on device" "$mmsim" "${small[@]}" --trace /dev/full
failed_write "$tmp/out" "--save-matrix: cannot write '/dev/full': No space left on device" \
  "$mmsim" run bmmc --random-bmmc -n 1024 --save-matrix /dev/full
failed_write "$tmp/out" "--svg: cannot write '/dev/full': No space left on device" \
  "$mmsim" layout --layout rap -w 8 --seed 1 --svg /dev/full
failed_write "$tmp/out" "-o: cannot write '/dev/full': No space left on device" \
  "$mmsim" schedule --perm random -n 4096 -w 8 -o /dev/full
failed_write /dev/full "cannot write standard output: No space left on device" \
  "$mmsim" table kasagi-t1 -n 4096 -w 8 -k 2 --format csv

# A closed standard output: the reader stopped early, and mmsim ends quietly with status 0, as the
# standard tools do; with SIGPIPE blocked (so that only EPIPE tells) too. The reading end is closed
# before mmsim starts, so that no timing decides which happens first (python3 only holds the pipe).
closed_pipe() {
  python3 - "$@" <<'PY'
import os, signal, subprocess, sys
block = sys.argv[1] == "blocked"
r, w = os.pipe()
os.close(r)
mask = (lambda: signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGPIPE])) if block else None
p = subprocess.run(sys.argv[2:], stdout=w, stderr=subprocess.PIPE, preexec_fn=mask)
err = p.stderr.decode()
print(p.returncode, len(err.splitlines()), err.strip())
PY
}
if command -v python3 >/dev/null; then
  got=$(closed_pipe signal "$mmsim" list)
  [[ "$got" == "0 0 " ]] || say_fail "list into a closed pipe: $got, wanted status 0 and no stderr"
  got=$(closed_pipe blocked "$mmsim" list --json)
  [[ "$got" == "0 0 " ]] || say_fail "list --json into a closed pipe, SIGPIPE blocked: $got"
  got=$(closed_pipe signal "$mmsim" "${small[@]}" --trace /dev/stdout)
  [[ "$got" == "0 0 " ]] || say_fail "--trace /dev/stdout into a closed pipe: $got"
  got=$(closed_pipe signal "$mmsim" table kasagi-t1 -n 4096 -w 8 -k 2)
  [[ "$got" == "0 0 " ]] || say_fail "table into a closed pipe: $got"
  # The reader that reads one line and leaves, as people pipe: one line out, nothing on stderr.
  lines=$("$mmsim" list 2>"$tmp/err" | head -1 | wc -l)
  [ "$lines" = 1 ] && [ ! -s "$tmp/err" ] || say_fail "mmsim list | head -1: $lines lines, stderr '$(cat "$tmp/err")'"
  "$mmsim" table kasagi-t1 -n 4096 -w 8 -k 2 --format csv 2>"$tmp/err" | head -1 >/dev/null
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] && [ ! -s "$tmp/err" ] || say_fail "table | head -1: status $status, '$(cat "$tmp/err")'"
else
  echo "note: no python3, the closed-pipe cases were skipped"
fi

# Interrupted: a file size limit kills the run (SIGXFSZ) half-way through a 2 MB trace. The old
# file under the real name is intact; a fresh name never appears.
echo "an older trace" >"$tmp/t.csv"
(ulimit -f 64; exec "$mmsim" run transpose --perm transpose -n 16384 --threads 1 --trace "$tmp/t.csv") >/dev/null 2>&1
[ "$(cat "$tmp/t.csv")" = "an older trace" ] || say_fail "an interrupted trace replaced the older file"
(ulimit -f 64; exec "$mmsim" run transpose --perm transpose -n 16384 --threads 1 --trace "$tmp/new.csv") >/dev/null 2>&1
[ -e "$tmp/new.csv" ] && say_fail "an interrupted trace left $tmp/new.csv ($(wc -c <"$tmp/new.csv") bytes)"
# A killed process cannot clean up: what it leaves is its hidden temporary file, nothing else.
[ "$(find "$tmp" -name '.*.mmsim-*' | wc -l)" = 2 ] || say_fail "killed runs left: $(ls -A "$tmp")"
find "$tmp" -name '.*.mmsim-*' -delete
# The same with SIGXFSZ ignored: the write fails (EFBIG), mmsim says so and removes its temporary file.
(trap '' XFSZ; ulimit -f 64; exec "$mmsim" run transpose --perm transpose -n 16384 --threads 1 --trace "$tmp/t.csv") \
  >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || say_fail "trace over the size limit: exit $status, wanted 1"
grep -qF -- "--trace: cannot write '$tmp/t.csv': File too large" "$tmp/err" || say_fail "trace over the limit: $(cat "$tmp/err")"
[ "$(cat "$tmp/t.csv")" = "an older trace" ] || say_fail "a failed trace replaced the older file"
[ -z "$(find "$tmp" -name '.*mmsim-*')" ] || say_fail "a failed write left $(find "$tmp" -name '.*mmsim-*')"

# A finished file replaces the old one whole, and keeps its permission bits.
chmod 640 "$tmp/t.csv"
"$mmsim" "${small[@]}" --trace "$tmp/t.csv" >/dev/null || say_fail "trace to a regular file"
head -1 "$tmp/t.csv" | grep -q '^round,kernel,' || say_fail "the trace file has no header"
[ "$(stat -c %a "$tmp/t.csv")" = 640 ] || say_fail "the trace file's mode became $(stat -c %a "$tmp/t.csv")"
# Through a symbolic link: the file it points to is replaced, the link stays.
ln -s t.csv "$tmp/link.csv"
"$mmsim" run d-designated --perm identical -n 128 --trace "$tmp/link.csv" >/dev/null || say_fail "trace via a link"
[ -L "$tmp/link.csv" ] || say_fail "the link was replaced by a file"
grep -q ',128$\|^0,' "$tmp/t.csv" || say_fail "the file behind the link was not written"

# Special files are written as streams: /dev/null, /dev/stdout (a pipe here), a FIFO.
"$mmsim" "${small[@]}" --trace /dev/null >/dev/null 2>"$tmp/err" || say_fail "--trace /dev/null: $(cat "$tmp/err")"
"$mmsim" "${small[@]}" --trace /dev/stdout 2>"$tmp/err" | grep -c '^0,' >"$tmp/n" || true
[ "$(cat "$tmp/n")" -gt 0 ] || say_fail "--trace /dev/stdout wrote no rows: $(cat "$tmp/err")"
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
"$mmsim" "${small[@]}" --trace "$tmp/fifo" >/dev/null 2>"$tmp/err" || say_fail "--trace FIFO: $(cat "$tmp/err")"
wait "$reader"
"$mmsim" "${small[@]}" --trace "$tmp/direct.csv" >/dev/null
cmp -s "$tmp/from-fifo" "$tmp/direct.csv" || say_fail "the trace through a FIFO differs from the file"
# A trace to the stream --json prints on is refused before the run.
"$mmsim" "${small[@]}" --trace /dev/stdout --json >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] ||
  say_fail "--trace /dev/stdout --json: $(cat "$tmp/err")"

echo "write failures: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
