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
# ok COMMAND...: the command must exit 0 (its output stays in $tmp/out and $tmp/err).
ok() { if ! "$@" >"$tmp/out" 2>"$tmp/err"; then echo "FAIL (status $?): $*"; cat "$tmp/err"; fail=1; fi; }
# bad COMMAND...: the command must exit 2 with exactly one line on stderr.
bad() {
  "$@" >"$tmp/out" 2>"$tmp/err"
  local s=$?
  if [ "$s" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then echo "FAIL (want status 2 and one line, got $s): $*"; cat "$tmp/err"; fail=1; fi
}
