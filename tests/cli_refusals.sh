# Sourced by the CLI test scripts that count their failures (cli_smoke.sh, cli_teaching.sh): a
# scratch folder $tmp, removed at exit, and fail MESSAGE, which prints it and counts it in $failures.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_refused GREP_MODE PATTERN COMMAND...: exit 2, exactly one line on stderr that matches
# PATTERN, empty stdout. GREP_MODE is grep's: -q for a regular expression, -qF for a fixed string.
expect_refused() {
  local mode=$1 pattern=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local status=$?
  [ "$status" -eq 2 ] || fail "'$*': exit $status, expected 2"
  [ -s "$tmp/out" ] && fail "'$*': printed on stdout"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$*': stderr has $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
  grep "$mode" -- "$pattern" "$tmp/err" || fail "'$*': stderr '$(cat "$tmp/err")' lacks '$pattern'"
}
