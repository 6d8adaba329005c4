#!/usr/bin/env bash
# `mmsim figure` into folders whose names a shell would read as code: a quote, spaces, $(...),
# backticks, a semicolon, a newline. Each figure's files must land in that folder, and nothing else
# may run (no stray file anywhere). Then gnuplot missing, and gnuplot failing, each give one line.
#   cli_figure_folder_names.sh MMSIM [FIGURE]   (default rap-congestion: four gnuplot runs, ~2 s)
set -u
mmsim=$1
figure=${2:-rap-congestion}
# shellcheck source=cli_scratch.sh
source "$(dirname "$0")/cli_scratch.sh"

# The files `mmsim figure FIGURE` writes, in the order `ls` gives them.
expected=$(cd "$tmp" && mkdir plain && "$mmsim" figure "$figure" --out plain >"$tmp/listed" 2>"$tmp/err"; echo $? >"$tmp/status"; ls plain)
status=$(cat "$tmp/status")
# It lists every file it made, data and scripts included (reproduce's manifest is made from these
# lists), and leaves no hidden file of its own (its images are drawn under hidden names, then renamed).
if [ "$status" = 0 ]; then
  listed=$(sed 's|^plain/||' "$tmp/listed" | sort)
  present=$(ls -A "$tmp/plain" | sort)
  [ "$listed" = "$present" ] || say_fail "figure $figure lists [$listed] but made [$present]"
fi
if [ "$status" != 0 ]; then
  if grep -q "gnuplot not found" "$tmp/err"; then
    echo "SKIP: gnuplot is not installed (Debian package gnuplot-nox): folder names not checked"
    skip_names=1
  else
    echo "FAIL: figure $figure into a plain folder: exit $status"; cat "$tmp/err"; exit 1
  fi
fi
rm -rf "$tmp/plain"

names=(
  "it's"
  "two words; touch PWNED_semicolon"
  '$(touch PWNED_subst) and `touch PWNED_backtick`'
  $'first line\nsecond line; touch PWNED_newline'
  # The issue's example: the old code pasted the folder into '...' on a shell command line, so a
  # quote ended the name and the rest ran.
  "DIR'; touch DIR/PWNED; echo '"
  "out'; touch PWNED_quote; echo '"
)
if [ -z "${skip_names:-}" ]; then
  for i in "${!names[@]}"; do
    name=${names[$i]}
    case_dir="$tmp/case$i"
    mkdir -p "$case_dir/DIR"  # where the issue's example would have put PWNED
    # The folder is made, its parent must exist ("DIR'; touch DIR" for the issue's example).
    [[ "$name" == */* ]] && mkdir -p "$case_dir/${name%/*}"
    before=$(find "$case_dir" -mindepth 1 -printf 'x' | wc -c)
    # Run from the case's folder, so that a relative stray would land beside the output folder.
    (cd "$case_dir" && "$mmsim" figure "$figure" --out "$name" >"$tmp/out" 2>"$tmp/err")
    status=$?
    shown=$(printf '%q' "$name")
    [ "$status" = 0 ] || { say_fail "--out $shown: exit $status: $(cat "$tmp/err")"; continue; }
    [ -s "$tmp/err" ] && say_fail "--out $shown: printed on stderr: $(cat "$tmp/err")"
    got=$(ls "$case_dir/$name" 2>/dev/null)
    [ "$got" = "$expected" ] || say_fail "--out $shown: folder holds [$got], wanted [$expected]"
    for f in "$case_dir/$name"/*.png; do
      [ "$(head -c 4 "$f" | tail -c 3)" = PNG ] || say_fail "--out $shown: $(basename "$f") is not a PNG"
    done
    # Nothing new but the folder and the figure's files, anywhere under the case's folder.
    after=$(find "$case_dir" -mindepth 1 -printf 'x' | wc -c)
    made=$((1 + $(printf '%s\n' "$expected" | wc -l)))
    [ "$after" = $((before + made)) ] || say_fail "--out $shown: $((after - before)) new entries, wanted $made"
    [ -z "$(ls -A "$case_dir/DIR")" ] || [[ "$name" == DIR/* ]] || say_fail "--out $shown: something was written into DIR"
    # Every line of stdout names a file of the figure inside the folder.
    [ "$(grep -c "\.csv$" "$tmp/out")" -ge 1 ] || say_fail "--out $shown: stdout names no CSV file"
  done
  strays=$(find "$tmp" \( -name PWNED -o -name 'PWNED_*' \) -printf '%p ')
  [ -z "$strays" ] || say_fail "a folder name ran as code: $strays"
fi

# gnuplot missing: one line, status 1 (an output that could not be written), nothing run.
mkdir -p "$tmp/empty-bin" "$tmp/missing"
PATH="$tmp/empty-bin" "$mmsim" figure "$figure" --out "$tmp/missing" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || say_fail "no gnuplot: exit $status, wanted 1"
[ "$(wc -l <"$tmp/err")" = 1 ] || say_fail "no gnuplot: stderr has $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
grep -q "gnuplot not found on the PATH (install the Debian package gnuplot-nox)" "$tmp/err" ||
  say_fail "no gnuplot: stderr '$(cat "$tmp/err")' does not say so"

# A gnuplot that says several lines and fails: one line with its status and its last line. It also
# records its folder and arguments: the output folder, and nothing but "./NAME.gp".
mkdir -p "$tmp/fake-bin" "$tmp/fail it's"
cat >"$tmp/fake-bin/gnuplot" <<'FAKE'
#!/bin/sh
printf '%s\n' "$PWD" "$#" "$1" >"$FAKE_LOG"
echo "gnuplot: first complaint" >&2
echo "gnuplot: the last word" >&2
exit 3
FAKE
chmod +x "$tmp/fake-bin/gnuplot"
FAKE_LOG="$tmp/fake.log" PATH="$tmp/fake-bin:$PATH" "$mmsim" figure "$figure" --out "$tmp/fail it's" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || say_fail "failing gnuplot: exit $status, wanted 1"
[ "$(wc -l <"$tmp/err")" = 1 ] || say_fail "failing gnuplot: stderr has $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
grep -q "exit status 3: gnuplot: the last word" "$tmp/err" || say_fail "failing gnuplot: stderr '$(cat "$tmp/err")'"
if [ -f "$tmp/fake.log" ]; then
  { read -r dir; read -r argc; read -r arg; } <"$tmp/fake.log"
  [ "$dir" = "$(cd "$tmp/fail it's" && pwd)" ] || say_fail "gnuplot ran in '$dir', not in the output folder"
  # The script gnuplot runs is NAME.gp drawing into hidden names, renamed when done (docs/report.md).
  [ "$argc" = 1 ] && [[ "$arg" == ./.*.gp.mmsim-run ]] ||
    say_fail "gnuplot got $argc arguments, first '$arg'; wanted ./.NAME.gp.mmsim-run"
else
  say_fail "the fake gnuplot did not run"
fi

echo "figure folder names: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
