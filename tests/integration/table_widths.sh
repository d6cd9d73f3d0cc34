#!/usr/bin/env bash
# Issue 49 item 4: tables fit the screen. At COLUMNS=120 (the width off a terminal) the text
# output of each reading command on every shipped database has no line wider than 120 columns
# (display width: "±" and "µ" are one): the report, the verdict and the phases view, compare of
# the first and newest run (with --phases) and the history. A command that does not apply to a
# database (no phases there, too few runs) fails with its own error and is not a table. At
# COLUMNS=80 most tables still need more columns than that (docs/reporting.md).
# Runs read-only on the shipped databases; nothing boots.
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
checked=0
widest=0
for db in "$root"/docs/data/*.sqlite; do
  runs=($(sqlite3 "$db" 'SELECT id FROM runs ORDER BY id'))
  experiment=$(sqlite3 "$db" 'SELECT name FROM experiments ORDER BY id LIMIT 1')
  first=${runs[0]}
  last=${runs[-1]}
  while IFS= read -r command; do
    out=$(COLUMNS=120 "$BOOTBENCH" --db "$db" $command 2>/dev/null) || continue
    width=$(wc -L <<<"$out")
    [ "$width" -le 120 ] || fail "$(basename "$db"): bootbench $command is $width columns wide at 120:
$(awk 'length($0) > 120' <<<"$out" | head -3)"
    checked=$((checked + 1))
    [ "$width" -le "$widest" ] || widest=$width
  done <<EOC
report
report --view verdict
report --view phases --run $last
compare $first $last
compare $first $last --phases
history $experiment
EOC
done
[ "$checked" -ge 35 ] || fail "only $checked outputs were tables: the databases or commands changed"
echo "table widths: $checked outputs of $(ls "$root"/docs/data/*.sqlite | wc -l) databases, the widest $widest columns"
