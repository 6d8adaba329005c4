#!/usr/bin/env bash
# Self-describing tables (docs/report.md): `mmsim table NAME --format csv` names its columns in
# snake_case and ends every row with the parameters that made it and the build; rap-t2 also in the
# paper's layout (--wide); Monte Carlo means with their standard errors; the sweep's columns in one
# order whatever the grid's.
# Usage: cli_table_csv.sh MMSIM
set -u
mmsim=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cli_lib.sh"
cd "$tmp" || exit 1
version=$("$mmsim" --version | sed -n 's/^mmsim //p')
commit=$("$mmsim" --version | sed -n 's/^commit: //p')

ok "$mmsim" table kasagi-t1 -n 4096 -k 4 --format csv
head -1 "$tmp/out" >head.txt
want='algorithm,permutation,casual_read,casual_write,coalesced_read,coalesced_write,conflict_free_read,conflict_free_write,shared_rounds_with_conflicts,time_units,closed_form,difference,async_time_units,correct,n,w,l,L,k,seed,mmsim_version,mmsim_commit'
[ "$(cat head.txt)" = "$want" ] || { echo "FAIL: kasagi-t1's header: $(cat head.txt)"; fail=1; }
tail -n +2 "$tmp/out" | grep -vc ",4096,32,1,100,4,1,$version,$commit\$" | grep -qx 0 ||
  { echo "FAIL: a kasagi-t1 row does not end with its parameters and the build"; fail=1; }
# Every header of every table in snake_case (the golden tables' small settings).
while read -r name options; do
  case "$name" in '' | '#'*) continue ;; esac
  # shellcheck disable=SC2086  # the options are words by design
  "$mmsim" table "$name" $options --format csv 2>/dev/null | head -1 | tr ',' '\n' | grep -v '^[a-z0-9_]*$' | grep -vx 'L' &&
    { echo "FAIL: $name has a column that is not snake_case (above)"; fail=1; }
done <"$here/golden/tables.txt"

# Table II long and wide: the same cells; standard errors beside every mean of Tables I and IV.
ok "$mmsim" table rap-t2 --trials 200 --format csv
cp "$tmp/out" long.csv
ok "$mmsim" table rap-t2 --trials 200 --wide --format csv
cp "$tmp/out" wide.csv
[ "$(wc -l <long.csv)" = 61 ] && [ "$(wc -l <wide.csv)" = 13 ] || { echo "FAIL: rap-t2 long/wide row counts"; fail=1; }
head -1 wide.csv | grep -q '^access,layout,w_16,se_w_16,paper_w_16,w_32,.*,within_4_se,trials,seed,mmsim_version' ||
  { echo "FAIL: rap-t2 --wide header: $(head -1 wide.csv)"; fail=1; }
m16=$(awk -F, '$1 == "random" && $2 == "rap" && $3 == 16 { print $4 }' long.csv)
w16=$(awk -F, '$1 == "random" && $2 == "rap" { print $3 }' wide.csv)
[ -n "$m16" ] && [ "$m16" = "$w16" ] || { echo "FAIL: rap-t2 wide cell ($w16) differs from long ($m16)"; fail=1; }
bad "$mmsim" table kasagi-t1 --wide
ok "$mmsim" table rap-t1 --trials 100 --format csv
head -1 "$tmp/out" | grep -q '^access,layout,paper,w_16,se_w_16,w_32,se_w_32,' || { echo "FAIL: rap-t1 s.e."; fail=1; }
ok "$mmsim" table rap-t4 --trials 50 --format json
grep -q '"se_raw"' "$tmp/out" && grep -q '"parameters": *{' "$tmp/out" && grep -q '"commit"' "$tmp/out" ||
  { echo "FAIL: rap-t4's JSON lacks se_raw, parameters or commit"; fail=1; }

# The sweep: one column order whatever the grid's key order.
printf '%s' '{"runs": [{"algorithm": "d-designated", "parameters": {"seed": [1], "n": [1024], "perm": ["random"]}}]}' >ga.json
printf '%s' '{"runs": [{"algorithm": "d-designated", "parameters": {"perm": ["random"], "n": [1024], "seed": [1]}}]}' >gb.json
ok "$mmsim" sweep ga.json -o a.csv --threads 1
ok "$mmsim" sweep gb.json -o b.csv --threads 1
cmp -s a.csv b.csv || { echo "FAIL: the sweep's columns follow the grid's order"; diff a.csv b.csv; fail=1; }
head -1 a.csv | grep -q '^algorithm,execution,n,w,.*,correct,error,mmsim_version,mmsim_commit$' ||
  { echo "FAIL: the sweep's header: $(head -1 a.csv)"; fail=1; }
# The real-access catalogue and the histograms: their parameters and the build after their columns.
ok "$mmsim" accesses --format csv
head -1 "$tmp/out" | grep -q ',sectors,w,mmsim_version,mmsim_commit$' || { echo "FAIL: accesses' header: $(head -1 "$tmp/out")"; fail=1; }
ok "$mmsim" accesses --histograms --keys 1024 --seed 7 --format csv
head -1 "$tmp/out" | grep -q ',correct,keys,bins,w,l,L,k,seed,mmsim_version,mmsim_commit$' &&
  sed -n 2p "$tmp/out" | grep -q ",1024,256,32,1,400,132,7,$version,$commit\$" ||
  { echo "FAIL: the histograms' parameters: $(head -2 "$tmp/out")"; fail=1; }
[ $fail = 0 ] && echo "cli_table_csv: all passed"
exit $fail
