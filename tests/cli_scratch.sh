# Sourced by the CLI test scripts that count failures in $fail: a scratch folder $tmp, removed at
# exit, and say_fail MESSAGE, which prints the failure and sets fail=1 for the script's `exit $fail`.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }
