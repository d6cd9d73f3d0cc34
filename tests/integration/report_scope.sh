#!/usr/bin/env bash
# A report over a database of several experiments does not pool them by default (issue 33 item
# 1): the shipped seed000-efivar.sqlite holds srcu-efivar-ab (run 1) and srcu-efivar-ab12 (run 2),
# whose cells share every axis value.
. "$(dirname "$0")/lib.sh"
db=$(dirname "$0")/../../docs/data/seed000-efivar.sqlite
"$BOOTBENCH" --db "$db" report >"$work/default.txt"
head -n 1 "$work/default.txt" | grep -q '^experiment srcu-efivar-ab12 (the newest run.s; this database holds 2 experiments' ||
  fail "no scope line: $(head -n 1 "$work/default.txt")"
grep -q '^boot_seconds: 12 boots, 10 used' "$work/default.txt" || fail "not one experiment's 12 boots"
"$BOOTBENCH" --db "$db" report --all-experiments >"$work/pooled.txt"
grep -q '^experiment ' "$work/pooled.txt" && fail "a pooled report named one experiment"
grep -q '^boot_seconds: 24 boots' "$work/pooled.txt" || fail "--all-experiments did not pool both"
"$BOOTBENCH" --db "$db" report --experiment srcu-efivar-ab | grep -q '^experiment ' &&
  fail "an explicit --experiment got a scope line"
# Machine formats keep their stream clean: the note goes to stderr.
"$BOOTBENCH" --db "$db" report --format csv 2>"$work/err" >"$work/out.csv"
grep -q '^bootbench: experiment srcu-efivar-ab12' "$work/err" || fail "csv: no note on stderr"
grep -q 'experiment srcu-efivar' "$work/out.csv" && fail "csv: the note is in the data"
echo PASS
