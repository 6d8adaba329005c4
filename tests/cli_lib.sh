# Shared by the families' CLI test scripts: `source` it after setting mmsim=PATH.
# expect STATUS DESCRIPTION -- COMMAND...: the command must exit with STATUS; for status 2 (bad input)
# it must print exactly one line on stderr. Failures set fail=1; the script ends with `exit $fail`.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {
  local want=$1 what=$2
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL ($what): exit $got, wanted $want"; cat "$tmp/out" "$tmp/err"; fail=1
  elif [ "$want" = 2 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then
    echo "FAIL ($what): wanted one line on stderr"; cat "$tmp/err"; fail=1
  fi
}
