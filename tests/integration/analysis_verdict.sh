#!/usr/bin/env bash
# The declared analysis and precision-based repeats end to end on real guests (issue 15, items
# 2 and 5), one run of CI's smoke kernel (cached) with two values of a boot parameter:
# - `bootbench run` ends with the verdict table of the declared comparison, and
#   `report --view verdict` reprints it from the database (the analysis stored with the run);
# - `repeats: {min: 6, max: 8, until: ...}` on a guest metric: the cell whose metric is constant
#   stops at n=6 ("precision reached"), the cell whose workload sleeps a random time and reports
#   it runs to max ("max reached"); both reasons are stored (run_cells) and printed;
# - running the file again resumes the run and boots nothing: the rule decides from the database.
. "$(dirname "$0")/lib.sh"

cat >"$work/work.sh" <<'SH'
#!/bin/sh
# Noise in the phase=1000 cell only: sleep 0 to 1.27 s, drawn from /dev/urandom.
ms=100
if grep -q 'srcu_max_nodelay_phase=1000' /proc/cmdline; then
  ms=$(( $(od -An -N1 -tu1 /dev/urandom) * 5 ))
  usleep $((ms * 1000))
fi
echo "BOOTBENCH-METRIC work_ms $ms ms"
echo BOOTBENCH-MARKER work-done
SH
cat >"$work/analysis.yaml" <<YAML
name: analysis-verdict
kernel:
  arch: arm64
  fragments: $smoke_fragments
  variants: [{name: stock}]
axes:
  hz: [250]
  cmdline:
    srcutree.srcu_max_nodelay_phase: [100, 1000]
  smp: [1]
  firmware: [QEMU_EFI.fd]
  machine: ["virt,acpi=off"]
guest:
  workload: work.sh
  markers: {timing: work-done, end: end}
  cmdline: quiet
analysis:
  endpoint: boot_seconds
  compare: {srcutree.srcu_max_nodelay_phase: [100, 1000]}
  paired: round
repeats: {min: 6, max: 8, until: {endpoint: work_ms, ci_halfwidth: 5%}}
timeout: 120
seed: 11
YAML

run_status=0
COLUMNS=120 "$BOOTBENCH" run "$work/analysis.yaml" >"$work/run.txt" 2>&1 || run_status=$?
grep -q "^verdict of run 1 (analysis-verdict): endpoint boot_seconds" "$work/run.txt" ||
  fail "no verdict table after the run: $(cat "$work/run.txt")"
# One row: what it shares with no other row (A, B, the method) is said once above it at 120
# columns (report/text_table.h), the row keeps the pairs, the ratio and the decision.
grep -q "^same in every row: A: 100; B: 1000; method: signed-rank, exact$" "$work/run.txt" ||
  fail "A, B or method: $(cat "$work/run.txt")"
row=$(grep "^all boots  " "$work/run.txt") || fail "no verdict row: $(cat "$work/run.txt")"
# The 1000 cell booted 8 rounds, the 100 cell 6: 6 pairs, 2 boots without a partner.
grep -q "6 pairs (2 unpaired)" <<<"$row" || fail "pairs: $row"
grep -Eq " (B slower|B faster|no difference shown)$" <<<"$row" || fail "decision: $row"
# The run exits 0 whatever the verdict (`report --view verdict` gates) and ends with the row in
# one sentence.
expect_eq "$run_status" 0 "run's exit status for: $row"
case $row in
  *"B slower") sentence="^answer: 1000 is [0-9.]+× \[[0-9.]+, [0-9.]+\] slower than 100 \(boot time, 6 pairs, exact p " ;;
  *"B faster") sentence="^answer: 1000 is [0-9.]+× \[[0-9.]+, [0-9.]+\] faster than 100 \(boot time, 6 pairs, exact p " ;;
  *) sentence="^answer: no difference shown: 1000 vs 100: [0-9.]+× \[[0-9.]+, [0-9.]+\]; the interval excludes changes beyond " ;;
esac
grep -Eq "$sentence" "$work/run.txt" || fail "the answer line does not say the row's decision ($row): $(grep answer "$work/run.txt")"
grep -q "phase=100: precision reached at n=6 (±0.0 % ≤ ±5.0 %)" "$work/run.txt" ||
  fail "the constant cell did not stop early: $(cat "$work/run.txt")"
grep -q "phase=1000: max reached (n=8, " "$work/run.txt" ||
  fail "the noisy cell did not run to max: $(cat "$work/run.txt")"
expect_eq "$(q "select group_concat(repeats || ' ' || substr(stop_reason, 1, 9), ', ')
                from (select * from run_cells order by cell_key)")" \
  "6 precision, 8 max reach" "stop reasons stored per cell"
expect_eq "$(q "select count(*) from boots")" 14 "6 + 8 boots"

# Exit 1 exactly when the comparison decided B slower (issue 48 item 7: it exited 0 on "slower").
status=0
"$BOOTBENCH" report --view verdict --run 1 >"$work/verdict.txt" || status=$?
if grep -q "B slower" <<<"$row"; then expected=1; else expected=0; fi
expect_eq "$status" "$expected" "report --view verdict's exit status for: $row"
expect_eq "$(cat "$work/verdict.txt")" "$(sed -n '/^verdict of run 1/,$p' "$work/run.txt")" \
  "report --view verdict reprints the run's table"
"$BOOTBENCH" report --run 1 | head -n1 | has_match "^exploratory: run 1 declared an analysis" ||
  fail "the grouped report is not labelled exploratory"
# The same verdict as JSON, from report and from a resumed run --json (which boots nothing).
"$BOOTBENCH" report --view verdict --run 1 --format json >"$work/verdict.json" || true
"$BOOTBENCH" run "$work/analysis.yaml" --json >"$work/resume.json" 2>/dev/null
python3 - "$work/verdict.json" "$work/resume.json" "$row" <<'PY' || fail "verdict JSON"
import json, sys
report, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["verdict"]
assert report == run, "report --view verdict --format json and run --json differ"
(row,) = report["comparisons"]
assert (row["a"], row["b"], row["n_a"], row["n_b"], row["unpaired"]) == ("100", "1000", 6, 6, 2), row
assert sys.argv[3].endswith(row["decision"]), (row["decision"], sys.argv[3])
PY
# compare too: two runs' comparison is not the question a run declared. A run compared with
# itself is refused (issue 48 item 7), so a copy of the database gets run 1 again as run 2.
cp "$BOOTBENCH_DB" "$work/twice.sqlite"
sqlite3 "$work/twice.sqlite" "CREATE TEMP TABLE r AS SELECT * FROM runs WHERE id = 1;
  UPDATE r SET id = 2; INSERT INTO runs SELECT * FROM r;
  CREATE TEMP TABLE b AS SELECT * FROM boots WHERE run_id = 1;
  UPDATE b SET id = id + (SELECT max(id) FROM boots), run_id = 2; INSERT INTO boots SELECT * FROM b"
"$BOOTBENCH" --db "$work/twice.sqlite" compare 1 2 --by cell | head -n1 |
  grep -q "^exploratory: run 1, 2 declared an analysis" || fail "compare is not labelled exploratory"

# Resumed: every cell is decided from what is stored, nothing is booted again.
"$BOOTBENCH" run "$work/analysis.yaml" >"$work/resume.txt" 2>&1 || fail "resume: $(cat "$work/resume.txt")"
grep -q "run 1 done: 0 samples booted" "$work/resume.txt" || fail "resume booted: $(cat "$work/resume.txt")"
expect_eq "$(q "select count(*) from boots")" 14 "no boot added on resume"
echo "ok: verdict table printed and reprinted; precision stop at n=6, max at n=8; resume decided from the database"
