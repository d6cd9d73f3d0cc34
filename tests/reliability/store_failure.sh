#!/usr/bin/env bash
# A database that fails mid-run (issue 14, item 3): another process holds the write lock longer
# than bootbench waits for it (BOOTBENCH_BUSY_TIMEOUT=2 s), so storing the second sample fails.
# The run must stop cleanly — every guest stopped, the run marked failed once the lock is gone,
# exit status 3 with the reason and how to resume — and a resume must then finish it. Before the
# fix the worker thread died in std::terminate (exit 134) and left the run "running".
# The kernel is smoke-matrix's (integration.run_matrix builds it on a fresh machine).
. "$(dirname "$0")/../integration/lib.sh"
cat >"$work/store-failure.yaml" <<YAML
name: store-failure
kernel:
  arch: arm64
  fragments: $smoke_fragments
  variants: [{name: stock}]
axes:
  hz: [250]
  smp: [1]
  firmware: [QEMU_EFI.fd]
  machine: ["virt,acpi=off"]
repeats: 3
timeout: 120
seed: 5
YAML
BOOTBENCH_BUSY_TIMEOUT=2 "$BOOTBENCH" run "$work/store-failure.yaml" --slots 1 \
  >"$work/run.log" 2>&1 &
runner=$!
for _ in $(seq 600); do
  [ "$(q "select count(*) from boots" 2>/dev/null || echo 0)" -ge 1 ] && break
  kill -0 "$runner" 2>/dev/null || fail "the run ended before its first sample: $(cat "$work/run.log")"
  sleep 0.2
done
# Hold the write lock from another process until bootbench says it stopped.
mkfifo "$work/sql"
sqlite3 "$BOOTBENCH_DB" <"$work/sql" >"$work/locker.out" 2>&1 &
locker=$!
exec 8>"$work/sql"
echo "BEGIN IMMEDIATE; SELECT 'locked';" >&8
for _ in $(seq 100); do grep -q locked "$work/locker.out" && break; sleep 0.1; done
grep -q locked "$work/locker.out" || fail "could not take the write lock: $(cat "$work/locker.out")"
guests=""
for _ in $(seq 900); do
  guests="$guests $(test_qemus)"
  grep -q "^stopped: storing a sample failed" "$work/run.log" && break
  kill -0 "$runner" 2>/dev/null || break
  sleep 0.2
done
echo "COMMIT;" >&8
exec 8>&-
wait "$locker" || true
set +e
wait "$runner"
status=$?
set -e
expect_eq "$status" 3 "exit status of a run whose database failed"
grep -q "storing a sample failed: .*database is locked" "$work/run.log" ||
  fail "no reason given: $(tail -5 "$work/run.log")"
grep -q "run 1 is marked failed" "$work/run.log" || fail "not marked failed: $(tail -5 "$work/run.log")"
grep -q -- "--resume 1" "$work/run.log" || fail "no resume hint: $(tail -5 "$work/run.log")"
expect_eq "$(q "select status from runs where id = 1")" failed "run status"
stored=$(q "select count(*) from boots where run_id = 1")
[ "$stored" -ge 1 ] && [ "$stored" -lt 3 ] || fail "expected 1 or 2 stored samples, got $stored"
# The guest booting when the store failed must be gone.
[ -n "${guests// /}" ] || fail "never saw the run's guest while the lock was held"
no_qemu_left 10 "after the failed store"

# Resume finishes the run: every repeat exactly once.
"$BOOTBENCH" run "$work/store-failure.yaml" --resume 1 >"$work/resume.log" 2>&1 ||
  fail "resume failed: $(tail -5 "$work/resume.log")"
expect_eq "$(q "select status from runs where id = 1")" done "status after resume"
expect_eq "$(q "select count(*) || ' ' || count(distinct repeat_index) from boots where run_id = 1")" \
  "3 3" "each repeat stored once"
echo "PASS (store failed after $stored sample(s): exit 3, run marked failed, resumed to 3/3)"
