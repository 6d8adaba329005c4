#!/usr/bin/env bash
# The adversary's findings, one case each: user text in messages quoted (cut short, no control
# byte), outputs checked as inputs are, names from file content kept in the folder the user gave,
# files beside an output never written through a link, and bounds that refuse rather than cut.
# Each refusal is status 2 with one line of at most 300 bytes and no control byte, before any work.
set -u
mmsim=$1
root=$2
# shellcheck source=cli_scratch.sh
source "$(dirname "$0")/cli_scratch.sh"

# refused PATTERN COMMAND...: status 2, one clean stderr line containing PATTERN, nothing on stdout.
refused() {
  local pattern=$1; shift
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local status=$?
  local what="'${*:0:6}'"
  [ "$status" = 2 ] || say_fail "$what: exit $status, wanted 2 ($(head -c 300 "$tmp/err"))"
  [ -s "$tmp/out" ] && say_fail "$what: printed on stdout"
  [ "$(wc -l <"$tmp/err")" = 1 ] || say_fail "$what: stderr has $(wc -l <"$tmp/err") lines"
  [ "$(wc -c <"$tmp/err")" -le 300 ] || say_fail "$what: a message of $(wc -c <"$tmp/err") bytes"
  LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$tmp/err") && say_fail "$what: a control byte on stderr"
  grep -qF -- "$pattern" "$tmp/err" || say_fail "$what: stderr '$(head -c 300 "$tmp/err")' lacks '$pattern'"
}

# User text in messages: one line, cut short, control bytes as '?'.
refused "--model: must be dmm or umm (got 'd mm')" "$mmsim" access --model $'d\nmm' --warp 1,2,3,4
refused "--layout: unknown 'aaaa" "$mmsim" congestion --layout "$(head -c 131000 /dev/zero | tr '\0' a)" --pattern random
printf '{"runs": [{"algorithm": "d\\u001b[31mx", "parameters": {"n": [64]}}]}' >"$tmp/esc.json"
refused "unknown algorithm 'd?[31mx'" "$mmsim" sweep "$tmp/esc.json" -o "$tmp/esc.csv"
refused "--perm-file: cannot read '" "$mmsim" run d-designated -n 64 --perm-file "$tmp/$(printf 'p\033]0;x\007')"
refused "table: unknown '" "$mmsim" table "$(printf 'x%.0s' {1..500})"

# Outputs checked as inputs are: a name over 255 bytes refused up front; 250 bytes written.
long=$(printf 'n%.0s' {1..256})
refused "a file system takes at most 255" "$mmsim" run d-designated --perm identical -n 64 --trace "$tmp/$long"
name250=$(printf 'n%.0s' {1..250})
"$mmsim" run d-designated --perm identical -n 64 --trace "$tmp/$name250" >/dev/null 2>"$tmp/err" ||
  say_fail "a trace named with 250 bytes: $(cat "$tmp/err")"
[ -s "$tmp/$name250" ] || say_fail "the trace named with 250 bytes is missing"

# sweep: -o a non-regular file refused; links planted beside the output refused, targets untouched.
printf '{"runs": [{"algorithm": "d-designated", "parameters": {"n": [64], "perm": "identical"}}]}' >"$tmp/g.json"
refused "-o: '/dev/null' is not a regular file" "$mmsim" sweep "$tmp/g.json" -o /dev/null
[ -e /dev/null.json ] && say_fail "sweep -o /dev/null made /dev/null.json"
echo kept >"$tmp/target"
for beside in o.json o.csv.partial; do
  mkdir -p "$tmp/s-$beside"
  ln -s "$tmp/target" "$tmp/s-$beside/$beside"
  refused "is a symbolic link" "$mmsim" sweep "$tmp/g.json" -o "$tmp/s-$beside/o.csv"
  [ "$(cat "$tmp/target")" = kept ] || say_fail "sweep wrote through the link at $beside"
done

# The sweep's journal is bounded by its grid (4 KiB a row and 4 KiB for the header, docs/sweep.md),
# not at gigabytes whatever the grid: one row's journal of 9 KB is refused, and left as it was.
mkdir -p "$tmp/journal"
head -c 9000 /dev/zero | tr '\0' x >"$tmp/journal/o.csv.partial"
refused "more than the 8 KiB a journal of 1 rows may have" "$mmsim" sweep "$tmp/g.json" -o "$tmp/journal/o.csv"
[ "$(wc -c <"$tmp/journal/o.csv.partial")" = 9000 ] || say_fail "sweep changed the journal it refused"

# A profile whose constants are huge, or not numbers a profile holds, is refused.
profile=$root/results/gpu-h100/profile-h100.json
sed 's/"ms": [0-9.e-]*/"ms": 1e308/' "$profile" >"$tmp/huge.json"
refused "must be a number in [0, 1e9]" "$mmsim" predict d-designated --perm random -n 4096 --profile "$tmp/huge.json"

# validate: every input and output checked before any progress line.
refused "--measured: '" "$mmsim" validate --profile "$profile" --measured "$tmp/$(printf 'm%.0s' {1..5000})"
refused "--out: parent folder" "$mmsim" validate --profile "$profile" --measured "$root/results/gpu-h100" \
  --out "$tmp/missing/deeper"
refused "--format: x? not in" "$mmsim" validate --profile "$profile" \
  --measured "$root/results/gpu-h100" --format $'x\033'
refused "--instructions-from: '$tmp' has no instructions.csv" "$mmsim" validate --profile "$profile" \
  --measured "$root/results/gpu-h100" --families as --instructions-from "$tmp"

# validate --refit --out DIR: the refitted profile stays in DIR, whatever its device field says.
# (its microbenchmarks shrunk to 64 Ki elements: the refit simulates them, and only the file's name matters here)
python3 - "$profile" "$tmp/escape.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["device"] = "/../../x/ESCAPED"
for b in p["microbenchmarks"]:
    b["n"] = min(b["n"], 65536)
json.dump(p, open(sys.argv[2], "w"))
PY
mkdir -p "$tmp/deep/er/refit"
cp "$root/results/gpu-h100/counts-n67108864.csv" "$tmp/counts.csv"
timeout 300 "$mmsim" validate --profile "$tmp/escape.json" --refit --out "$tmp/deep/er/refit" \
  --measured "$root/results/gpu-h100" --families kni --counts "$tmp/counts.csv" --counts-only >/dev/null 2>&1
[ -e "$tmp/deep/er/refit/profile-_.._.._x_ESCAPED.json" ] || say_fail "refit: no profile-_.._.._x_ESCAPED.json in --out"
[ -n "$(find "$tmp" -name 'ESCAPED*' -o -name '*ESCAPED.json' | grep -v '/deep/er/refit/')" ] &&
  say_fail "refit: a profile outside --out: $(find "$tmp" -name '*ESCAPED*')"

# JSON is valid UTF-8: a trace file named with a byte that is not UTF-8.
bad=$'\xff\xfe.csv'
"$mmsim" run d-designated --perm identical -n 64 --trace "$tmp/$bad" >/dev/null 2>&1
"$mmsim" trace "$tmp/$bad" --json >"$tmp/t.json" 2>"$tmp/err" || say_fail "trace of a Latin-1 name: $(cat "$tmp/err")"
python3 -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/t.json" ||
  say_fail "trace --json of a Latin-1 name is not valid UTF-8 JSON"

exit $fail
