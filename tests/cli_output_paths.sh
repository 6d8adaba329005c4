#!/usr/bin/env bash
# Every option that names an output file or folder is checked before any work: an empty value, a
# missing parent, a parent that is a file, a place that takes no files. Each is refused with status
# 2, one line on stderr naming the option, nothing on stdout and no progress printed. Also: an
# output that fails during `reproduce` ends the progress line before its message.
set -u
mmsim=$1
# shellcheck source=cli_scratch.sh
source "$(dirname "$0")/cli_scratch.sh"
# The tests make read-only folders in $tmp: give write permission back before removing it.
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# refused PATTERN COMMAND...: exit 2 at once, one stderr line containing PATTERN, empty stdout.
refused() {
  local pattern=$1; shift
  local t0=$SECONDS
  "$@" >"$tmp/out" 2>"$tmp/err"
  local status=$?
  local what="'$*'"
  [ "$status" = 2 ] || say_fail "$what: exit $status, wanted 2 ($(cat "$tmp/err"))"
  [ -s "$tmp/out" ] && say_fail "$what: printed on stdout"
  [ "$(wc -l <"$tmp/err")" = 1 ] || say_fail "$what: stderr has $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
  grep -qF -- "$pattern" "$tmp/err" || say_fail "$what: stderr '$(cat "$tmp/err")' lacks '$pattern'"
  # The work each command would do takes seconds; a check before it takes none.
  [ $((SECONDS - t0)) -le 2 ] || say_fail "$what: took $((SECONDS - t0)) s: the check came after the work"
}

cd "$tmp"
touch a-file
missing="$tmp/no/such/folder"

# figure --out and reproduce --out: folders.
for cmd in "figure as-bounds" "reproduce"; do
  # shellcheck disable=SC2086
  refused "--out: must not be empty" "$mmsim" $cmd --out ""
  refused "--out: parent folder '$tmp/no/such' does not exist" "$mmsim" $cmd --out "$missing"
  refused "--out: '$tmp/a-file' is not a folder" "$mmsim" $cmd --out "$tmp/a-file"
  refused "--out: '$tmp/a-file' is not a folder" "$mmsim" $cmd --out "$tmp/a-file/sub"
  # /proc takes no new files, not even from root (for whom access() would say yes).
  refused "--out: cannot write in parent folder '/proc'" "$mmsim" $cmd --out /proc/mmsim-out
done

# schedule -o: a file. n = 2^24 takes seconds and hundreds of MiB when computed first.
big=(schedule --perm random -n 16777216 -w 32)
refused "-o: must not be empty" "$mmsim" "${big[@]}" -o ""
refused "-o: folder '$tmp/no/such/folder' does not exist" "$mmsim" "${big[@]}" -o "$missing/x.sch"
refused "-o: '$tmp/a-file' is not a folder" "$mmsim" "${big[@]}" -o "$tmp/a-file/x.sch"
refused "-o: '$tmp' is a folder; name a file in it" "$mmsim" "${big[@]}" -o "$tmp"
refused "-o: '$tmp/x/' names a folder" "$mmsim" "${big[@]}" -o "$tmp/x/"
refused "-o: cannot write in folder '/proc'" "$mmsim" "${big[@]}" -o /proc/x.sch

# run --trace: a file (the run entries come from the registry, cli/cmd_run.cpp).
run=(run d-designated --perm random -n 65536)
refused "--trace: must not be empty" "$mmsim" "${run[@]}" --trace ""
refused "--trace: folder '$tmp/no/such/folder' does not exist" "$mmsim" "${run[@]}" --trace "$missing/t.csv"
refused "--trace: '$tmp/a-file' is not a folder" "$mmsim" "${run[@]}" --trace "$tmp/a-file/t.csv"
"$mmsim" run d-designated --perm identical -n 64 --trace /dev/null >/dev/null 2>"$tmp/err" ||
  say_fail "--trace /dev/null refused: $(cat "$tmp/err")"

# A folder this user may not write in: only a user other than root is kept out by its mode.
mkdir "$tmp/locked" && chmod 555 "$tmp/locked"
if ! touch "$tmp/locked/probe" 2>/dev/null; then
  refused "--out: cannot write in folder '$tmp/locked'" "$mmsim" figure as-bounds --out "$tmp/locked"
  refused "-o: cannot write in folder '$tmp/locked'" "$mmsim" "${big[@]}" -o "$tmp/locked/x.sch"
  refused "--trace: cannot write in folder '$tmp/locked'" "$mmsim" "${run[@]}" --trace "$tmp/locked/t.csv"
else
  echo "note: running as root, so a mode does not keep this test out; /proc stood in for it above"
fi
chmod 755 "$tmp/locked"

# The checks refuse nothing that works: a fresh folder, made by the writer.
"$mmsim" schedule --perm random -n 4096 -w 8 -o "$tmp/s.sch" >/dev/null 2>"$tmp/err" || say_fail "schedule -o: $(cat "$tmp/err")"

# reproduce: an output it would replace that cannot be written (the first table's .md is a folder)
# is refused before any work, in one line, with status 2 (docs/exit-status.md).
mkdir -p "$tmp/repro/rap-t1.md"
"$mmsim" reproduce --out "$tmp/repro" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || say_fail "reproduce into a blocked file: exit $status, wanted 2"
[ "$(wc -l <"$tmp/err")" = 1 ] || say_fail "reproduce: stderr has $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
grep -q "rap-t1.md' is a folder" "$tmp/err" || say_fail "reproduce: the message does not name the folder: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || say_fail "reproduce: printed before refusing"

echo "output paths: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
