#!/usr/bin/env bash
# `bootbench runs` on a copy of a shipped database (real runs, no qemu): the list matches the
# database, --delete without --yes changes nothing, with --yes it removes the run and exactly its
# boots (metrics and histograms with them) and leaves the other run whole and the file sound;
# a report of the deleted run then points to `bootbench runs`.
source "$(dirname "$0")/lib.sh"
data=$(cd "$(dirname "$0")/../../docs/data" && pwd)
cp "$data/seed002-load.sqlite" "$BOOTBENCH_DB"
export BOOTBENCH_DB

list=$("$BOOTBENCH" runs)
echo "$list"
expect_eq "$(awk 'NR > 1 { print $1 }' <<<"$list" | paste -sd' ')" "1 2" "runs listed"
expect_eq "$(awk '$1 == 2 { print $2, $7, $9 }' <<<"$list")" \
  "rcu-wake-from-gp-load $(q 'select count(*) from boots where run_id = 2') yes" \
  "run 2's experiment, boots and declared analysis"
expect_eq "$("$BOOTBENCH" runs --json | jq -r '.[0].used')" \
  "$(q 'select count(*) from v_samples where run_id = 1 and used')" "json: used boots of run 1"
expect_eq "$("$BOOTBENCH" runs --experiment nonesuch)" "no runs of nonesuch in $BOOTBENCH_DB" \
  "an experiment without runs"

boots_1=$(q 'select count(*) from boots where run_id = 1')
boots_2=$(q 'select count(*) from boots where run_id = 2')
metrics_2=$(q 'select count(*) from metrics m join boots b on b.id = m.boot_id where b.run_id = 2')
"$BOOTBENCH" runs --delete 1 | grep -q "would delete run 1 " || fail "--delete without --yes"
expect_eq "$(q 'select count(*) from boots where run_id = 1')" "$boots_1" "nothing deleted without --yes"

out=$("$BOOTBENCH" runs --delete 1 --yes)
echo "$out"
grep -q "^deleted run 1: $boots_1 boots" <<<"$out" || fail "delete message: $out"
expect_eq "$(q 'select count(*) from runs where id = 1')" 0 "run 1 gone"
expect_eq "$(q 'select count(*) from boots where run_id = 1')" 0 "its boots gone"
expect_eq "$(q 'select count(*) from metrics where boot_id not in (select id from boots)')" 0 \
  "no orphaned metrics"
expect_eq "$(q 'select count(*) from histograms where boot_id not in (select id from boots)')" 0 \
  "no orphaned histogram buckets"
expect_eq "$(q 'select count(*) from boots where run_id = 2')" "$boots_2" "run 2's boots kept"
expect_eq "$(q 'select count(*) from metrics m join boots b on b.id = m.boot_id where b.run_id = 2')" \
  "$metrics_2" "run 2's metrics kept"
expect_eq "$(q 'pragma integrity_check')" ok "integrity"

if "$BOOTBENCH" report --run 1 2> "$work/err.txt"; then fail "report of a deleted run"; fi
grep -q 'bootbench --db .* runs' "$work/err.txt" || fail "no pointer to runs: $(cat "$work/err.txt")"
if "$BOOTBENCH" runs --delete 1 --yes 2> "$work/err2.txt"; then fail "deleted a missing run"; fi
grep -q 'no run 1' "$work/err2.txt" || fail "missing run message: $(cat "$work/err2.txt")"
echo "PASS runs_manage"
