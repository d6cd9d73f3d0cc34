#!/usr/bin/env bash
# Two experiments are not put together by default (issue 33 items 1-4): the shipped
# seed000-efivar.sqlite holds srcu-efivar-ab (run 1, 2 EFI writes) and srcu-efivar-ab12 (run 2,
# 12 writes), whose cells share every axis value. A report defaults to the newest run's
# experiment; compare refuses and names the settings that differ; plan wants a declared analysis
# and a pilot that booted the file's cells; a parameter table of two kernels keeps them in two
# columns (seed000-phase-table: the fixed anchor at 1000 must not join table's row 1000).
. "$(dirname "$0")/lib.sh"
db=$(dirname "$0")/../../docs/data/seed000-efivar.sqlite
"$BOOTBENCH" --db "$db" report >"$work/default.txt"
head -n 1 "$work/default.txt" | has_match '^experiment srcu-efivar-ab12 (the newest run.s; this database holds 2 experiments' ||
  fail "no scope line: $(head -n 1 "$work/default.txt")"
grep -q '^boot_seconds: 12 boots, 10 used' "$work/default.txt" || fail "not one experiment's 12 boots"
"$BOOTBENCH" --db "$db" report --all-experiments >"$work/pooled.txt"
grep -q '^experiment ' "$work/pooled.txt" && fail "a pooled report named one experiment"
grep -q '^boot_seconds: 24 boots' "$work/pooled.txt" || fail "--all-experiments did not pool both"
"$BOOTBENCH" --db "$db" report --experiment srcu-efivar-ab | has_match '^experiment ' &&
  fail "an explicit --experiment got a scope line"
# Machine formats keep their stream clean: the note goes to stderr.
"$BOOTBENCH" --db "$db" report --format csv 2>"$work/err" >"$work/out.csv"
grep -q '^bootbench: experiment srcu-efivar-ab12' "$work/err" || fail "csv: no note on stderr"
grep -q 'experiment srcu-efivar' "$work/out.csv" && fail "csv: the note is in the data"
"$BOOTBENCH" --db "$db" compare 1 2 >"$work/cmp.out" 2>"$work/cmp.err" && fail "compare across experiments exited 0"
[ $? -eq 2 ] || true
grep -q 'runs 1 and 2 are of different experiments (srcu-efivar-ab, srcu-efivar-ab12; their files differ in nested.l2_cmdline' "$work/cmp.err" ||
  fail "compare: $(cat "$work/cmp.err")"
[ -s "$work/cmp.out" ] && fail "compare printed a table before refusing"
"$BOOTBENCH" --db "$db" compare 1 2 --across-experiments --alpha 0.05 >"$work/cmp2.out" 2>"$work/cmp2.err" || [ $? -eq 1 ] ||
  fail "compare --across-experiments: $(cat "$work/cmp2.err")"
grep -q 'differ in nested.l2_cmdline' "$work/cmp2.err" || fail "no warning naming the difference"
root=$(dirname "$0")/../..
"$BOOTBENCH" --db "$db" plan "$root/configs/smoke-nested.yaml" --pilot 1 2>"$work/plan.err" &&
  fail "plan without an analysis"
grep -q 'declares no analysis' "$work/plan.err" || fail "plan: $(cat "$work/plan.err")"
"$BOOTBENCH" --db "$db" plan "$root/configs/quick.yaml" --pilot 1 2>"$work/plan2.err" &&
  fail "plan from another matrix's pilot"
grep -q "pilot run 1 (srcu-efivar-ab) did not boot 2 of .*quick.yaml's 2 cells" "$work/plan2.err" ||
  fail "plan: $(cat "$work/plan2.err")"
"$BOOTBENCH" --db "$db" plan "$root/configs/srcu-efivar-ab.yaml" --pilot 2 >"$work/plan3.out" 2>"$work/plan3.err" ||
  fail "plan from a pilot of the same cells: $(cat "$work/plan3.err")"
grep -q "pilot run 2's experiment file differs from .* in nested.l2_cmdline" "$work/plan3.err" ||
  fail "plan: no warning about the pilot's other L2 command line"
grep -q '^boots per cell: ' "$work/plan3.out" || fail "plan printed no plan"
pt=$(dirname "$0")/../../docs/data/seed000-phase-table.sqlite
# COLUMNS: one line per trend, as a wide terminal shows it (text wraps at 120 columns otherwise).
COLUMNS=400 "$BOOTBENCH" --db "$pt" report --view param-table --param srcutree.srcu_max_nodelay_phase \
  --metric efivar_storm_seconds >"$work/pt.txt"
head -n 1 "$work/pt.txt" | has_match '^columns by variant: the boots are of 2 variants' || fail "param-table: no column note"
grep -q 'variant=table-full: J = 228 .* over 8 values (43 boots), p = 0.000149' "$work/pt.txt" ||
  fail "param-table: the trend is not the declared one: $(grep trend "$work/pt.txt")"
echo PASS
