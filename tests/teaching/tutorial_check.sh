#!/usr/bin/env bash
# docs/tutorial.md cannot go stale: every ```console block is run. In a block, a line "$ COMMAND" is a
# command and the lines after it, up to the next "$ " line or the block's end, are its expected
# output (stdout and stderr together; blanks at line ends ignored). Commands run in order, in one
# scratch folder (so a file one writes, the next may read), with `mmsim` the binary under test.
# A block opened with ```console needs=NAME runs only where `mmsim list` has the algorithm NAME (the
# families merged later); elsewhere it is skipped, and the skip is counted and named.
#
# usage: tutorial_check.sh MMSIM TUTORIAL.md
set -u
M=$(readlink -f "$1")
DOC=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/run"
ln -s "$M" "$work/bin/mmsim"
export PATH="$work/bin:$PATH"
cd "$work/run" || exit 2

ran=0 failed=0 skipped=0
skipped_names=""
in_block=0 skip=0 cmd="" cmd_line=0
: >"$work/expected"

strip() { sed 's/[[:space:]]*$//'; }

flush() {
  [ -n "$cmd" ] || return 0
  if [ "$skip" = 1 ]; then
    skipped=$((skipped + 1))
  else
    ran=$((ran + 1))
    bash -c "$cmd" 2>&1 | strip >"$work/got"
    strip <"$work/expected" >"$work/want"
    if ! cmp -s "$work/want" "$work/got"; then
      failed=$((failed + 1))
      echo "FAIL: docs/tutorial.md line $cmd_line: \$ $cmd"
      diff -u --label expected --label got "$work/want" "$work/got" | head -40
    fi
  fi
  cmd=""
  : >"$work/expected"
}

n=0
while IFS= read -r line || [ -n "$line" ]; do
  n=$((n + 1))
  if [ "$in_block" = 0 ]; then
    if [[ "$line" =~ ^\`\`\`console([[:space:]]+needs=([a-z0-9-]+))?[[:space:]]*$ ]]; then
      in_block=1 skip=0
      need=${BASH_REMATCH[2]}
      if [ -n "$need" ] && ! mmsim list | grep -q "^| $need |"; then
        skip=1
        case " $skipped_names " in *" $need "*) ;; *) skipped_names="$skipped_names $need" ;; esac
      fi
    fi
    continue
  fi
  if [[ "$line" =~ ^\`\`\` ]]; then
    flush
    in_block=0
  elif [[ "$line" == '$ '* ]]; then
    flush
    cmd=${line#\$ }
    cmd_line=$n
  elif [ -n "$cmd" ]; then
    printf '%s\n' "$line" >>"$work/expected"
  fi
done <"$DOC"
[ "$in_block" = 0 ] || { echo "FAIL: docs/tutorial.md ends inside a console block"; exit 1; }

echo "tutorial: $ran commands run, $failed failed, $skipped skipped${skipped_names:+ (they need:$skipped_names, not registered in this build)}"
[ "$ran" -gt 0 ] || { echo "FAIL: no command found"; exit 1; }
[ "$failed" = 0 ]
