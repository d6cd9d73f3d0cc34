#!/usr/bin/env bash
# bootbench nightly end to end: the first night is the baseline, a night that is really slower
# (its workload sleeps 3 s before the timing marker) is a regression with exit status 1, and a
# nightly of an experiment already running is refused by the lock. The file pins a seed: every
# night must still boot a new run (a nightly never resumes the last one). Last, `run` resumes a
# run only from the same file content and refuses an edited file with the same seed.
. "$(dirname "$0")/lib.sh"
night() { # delay
  printf '#!/bin/sh\nsleep %s\necho BOOTBENCH-MARKER work-done\n' "$1" >"$work/work.sh"
  cat >"$work/nightly.yaml" <<YAML
name: nightly-test
kernel:
  arch: arm64
  fragments: $smoke_fragments
  variants: [{name: stock}]
axes:
  hz: [250]
  firmware: [QEMU_EFI.fd]
  machine: ["virt,acpi=off"]
guest:
  workload: work.sh
  markers: {timing: work-done, end: end}
  cmdline: quiet
repeats: 5                 # >= 4 usable samples (the least for a verdict) even if one fails
timeout: 120
seed: 7                    # pinned: the nightly must not take it as "resume run 1"
YAML
  # The verdict logic is under test, not the load rule: lib.sh's BOOTBENCH_QUIET_MAX_LOAD=1
  # keeps a busy CI host from leaving every sample "loaded" and the comparison without data.
  "$BOOTBENCH" nightly "$work/nightly.yaml" --report-dir "$work/reports" --threshold 5 "${@:2}"
}

night 0 >"$work/first.txt"
grep -q "is the first good nightly" "$work/first.txt" || fail "first night: $(cat "$work/first.txt")"
expect_eq "$(q "select verdict from runs order by id desc limit 1")" ok "first verdict"

set +e
night 3 >"$work/second.txt"
status=$?
set -e
expect_eq "$status" 1 "a slower night fails"
grep -q "1 slower" "$work/second.txt" || fail "second night: $(cat "$work/second.txt")"
expect_eq "$(q "select verdict || ' ' || baseline_run_id from runs order by id desc limit 1")" \
  "regression $(q "select min(id) from runs")" "regression recorded with its baseline"
report=$(ls "$work"/reports/run-*.md | tail -n1)
grep -q "| slower |" "$report" || fail "report lacks the verdict: $(cat "$report")"

expect_eq "$(q "select count(distinct run_id) || ' ' || count(*) from boots")" "2 10" \
  "two nights, two runs of 5 boots each"
expect_eq "$(q "select count(distinct seed) from runs")" 2 "each night has its own seed"

# The next night compares with the last *good* one, not with the regression (said as JSON).
night 3 --json >"$work/third.json" || true
expect_eq "$(jq -r '.baseline_run' "$work/third.json")" "$(q "select min(id) from runs")" \
  "third night's baseline: the good night, not the regression"
expect_eq "$(jq -r '"\(.run_id) \(.regression) \(.slower)"' "$work/third.json")" \
  "$(q "select max(id) from runs") true 1" "third night's JSON summary"

# The lock: hold it as a running nightly would, and a second nightly is refused at once.
cache=${BOOTBENCH_CACHE:-/var/cache/bootbench}
exec 9>"$cache/locks/nightly-nightly-test.lock"
flock -n 9
set +e
"$BOOTBENCH" nightly "$work/nightly.yaml" 2>"$work/err"
status=$?
set -e
exec 9>&-
expect_eq "$status" 2 "locked nightly exit status"
grep -q "a nightly of nightly-test is already running" "$work/err" || fail "lock message: $(cat "$work/err")"

# `run` with a pinned seed: a second run of the same file resumes (nothing left to boot), an
# edited file with the same seed is refused before anything boots.
sed -i 's/^repeats: 5 .*/repeats: 1/' "$work/nightly.yaml"
"$BOOTBENCH" run "$work/nightly.yaml" >"$work/run1.txt" 2>&1 || fail "run: $(cat "$work/run1.txt")"
"$BOOTBENCH" run "$work/nightly.yaml" >"$work/run2.txt" 2>&1 || fail "rerun: $(cat "$work/run2.txt")"
grep -q "0 samples booted.*1 already stored" "$work/run2.txt" ||
  fail "the same file and seed did not resume: $(cat "$work/run2.txt")"
boots_before=$(q "select count(*) from boots")
sed -i 's/^timeout: 120/timeout: 150/' "$work/nightly.yaml"
set +e
"$BOOTBENCH" run "$work/nightly.yaml" >"$work/edited.txt" 2>&1
status=$?
set -e
expect_eq "$status" 2 "edited file with the same seed: exit status"
grep -q "was started from different content of this file" "$work/edited.txt" ||
  fail "edited file message: $(cat "$work/edited.txt")"
expect_eq "$(q "select count(*) from boots")" "$boots_before" "nothing booted for an edited file"
no_qemu_left
echo PASS
