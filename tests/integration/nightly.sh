#!/usr/bin/env bash
# bootbench nightly end to end: the first night is the baseline, a night that is really slower
# (its workload sleeps 3 s before the timing marker) is a regression with exit status 1, and a
# nightly of an experiment already running is refused by the lock.
. "$(dirname "$0")/lib.sh"
night() { # delay
  printf '#!/bin/sh\nsleep %s\necho BOOTBENCH-MARKER work-done\n' "$1" >"$work/work.sh"
  cat >"$work/nightly.yaml" <<YAML
name: nightly-test
kernel:
  arch: arm64
  variants: [{name: stock}]
axes:
  hz: [250]
  firmware: [QEMU_EFI.fd]
  machine: ["virt,acpi=off"]
guest:
  workload: work.sh
  markers: {timing: work-done, end: end}
  cmdline: quiet
repeats: 5                 # >= 3 usable samples even if one is flagged for foreign load
timeout: 120
YAML
  # The verdict logic is under test, not the load rule: a busy CI host must not leave every
  # sample "loaded" and the comparison without data.
  "$BOOTBENCH" nightly "$work/nightly.yaml" --report-dir "$work/reports" --threshold 5 \
    --max-foreign-load 1
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

# The next night compares with the last *good* one, not with the regression.
night 3 >"$work/third.txt" || true
grep -q "vs run $(q "select min(id) from runs")" "$work/third.txt" ||
  fail "third night did not compare with the good baseline: $(cat "$work/third.txt")"

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
echo PASS
