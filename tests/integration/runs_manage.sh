#!/usr/bin/env bash
# `bootbench runs` on a copy of a shipped database (real runs, no qemu): the list matches the
# database, --delete without --yes changes nothing, with --yes it removes the run and exactly its
# boots (metrics and histograms with them) and leaves the other run whole and the file sound;
# a report of the deleted run then points to `bootbench runs`. Tags and a note: listed, filtered
# on, checked before anything is written (a bad one changes nothing), deleted with their run.
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

# Labels. The shipped file predates them (schema 10): listing it needs no migration.
expect_eq "$(awk '$1 == 2 { print $10 }' <<<"$list")" "-" "no tags on an old file"
out=$("$BOOTBENCH" runs --run 2 --tag baseline --tag quiet-host --note "host idle; ccache warm")
expect_eq "$out" "run 2: tags baseline, quiet-host; note host idle; ccache warm" "label message"
latest_schema=$(ls "$(dirname "${BASH_SOURCE[0]}")/../../db/migrations" | sed -n 's/^0*\([0-9][0-9]*\)_.*\.sql$/\1/p' | sort -n | tail -n 1)
expect_eq "$(q 'pragma user_version')" "$latest_schema" "labelling migrated the file"
expect_eq "$(q "select group_concat(tag, ',') from (select tag from run_tags where run_id = 2 order by tag)")" \
  "baseline,quiet-host" "tags stored"
expect_eq "$("$BOOTBENCH" runs --tagged baseline | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }')" 2 \
  "--tagged lists run 2 alone"
"$BOOTBENCH" runs | has_match -x 'note of run 2: host idle; ccache warm' || fail "note under the table"
expect_eq "$("$BOOTBENCH" runs --run 2 --json | jq -c '[.[].id, .[0].tags, .[0].note]')" \
  '[2,["baseline","quiet-host"],"host idle; ccache warm"]' "json: one run with its labels"
refused() { # what args...: exit 2 and the labels of run 2 unchanged
  local what=$1 before
  shift
  before=$(q "select group_concat(tag) || '|' || ifnull(note, '') from runs r left join run_tags t on t.run_id = r.id where r.id = 2")
  set +e; "$BOOTBENCH" runs "$@" 2> "$work/label.err"; local status=$?; set -e
  expect_eq "$status" 2 "$what: exit status ($(cat "$work/label.err"))"
  expect_eq "$(q "select group_concat(tag) || '|' || ifnull(note, '') from runs r left join run_tags t on t.run_id = r.id where r.id = 2")" \
    "$before" "$what: nothing changed"
}
refused "a tag with a space" --run 2 --tag "a b" --note "changed"
refused "a note with an escape" --run 2 --note $'\e[2J wiped'
refused "removing a tag the run lacks" --run 2 --untag nonesuch --tag other
refused "a label without --run" --tag baseline
refused "a run that does not exist" --run 99 --tag baseline
grep -q 'no run 99 .* runs)' "$work/label.err" || fail "missing run: $(cat "$work/label.err")"
"$BOOTBENCH" runs --run 2 --untag quiet-host --note '' > /dev/null
expect_eq "$(q "select group_concat(tag) || '|' || ifnull(note, '-') from runs r left join run_tags t on t.run_id = r.id where r.id = 2")" \
  "baseline|-" "--untag and --note '' remove"
"$BOOTBENCH" runs --run 1 --tag doomed > /dev/null

boots_1=$(q 'select count(*) from boots where run_id = 1')
boots_2=$(q 'select count(*) from boots where run_id = 2')
metrics_2=$(q 'select count(*) from metrics m join boots b on b.id = m.boot_id where b.run_id = 2')
"$BOOTBENCH" runs --delete 1 | has_match "would delete run 1 " || fail "--delete without --yes"
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
expect_eq "$(q 'select count(*) from run_tags where run_id = 1')" 0 "its tags gone"
expect_eq "$(q 'pragma integrity_check')" ok "integrity"

if "$BOOTBENCH" report --run 1 2> "$work/err.txt"; then fail "report of a deleted run"; fi
grep -q 'bootbench --db .* runs' "$work/err.txt" || fail "no pointer to runs: $(cat "$work/err.txt")"
if "$BOOTBENCH" runs --delete 1 --yes 2> "$work/err2.txt"; then fail "deleted a missing run"; fi
grep -q 'no run 1' "$work/err2.txt" || fail "missing run message: $(cat "$work/err2.txt")"
# A stored experiment name is shown, never obeyed: a control byte in it (a file from elsewhere,
# edited) does not reach the terminal.
q "update experiments set name = 'evil' || char(27) || ']0;owned' || char(7) || 'name'
   where id = (select experiment_id from runs where id = 2)"
shown=$("$BOOTBENCH" runs)
if grep -q $'\e' <<<"$shown"; then fail "an escape byte of a stored name reached the terminal"; fi
grep -q 'evil' <<<"$shown" || fail "the renamed experiment is not listed: $shown"
# The text list fits 120 columns (no terminal here) for every shipped database.
for db in "$data"/*.sqlite; do
  widest=$(env -u COLUMNS "$BOOTBENCH" --db "$db" runs | awk '{ if (length($0) > m) m = length($0) } END { print m }')
  [ "$widest" -le 120 ] || fail "$(basename "$db"): the runs list is $widest columns wide"
done
echo "PASS runs_manage"
