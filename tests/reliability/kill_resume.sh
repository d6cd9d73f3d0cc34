#!/usr/bin/env bash
# Crash consistency (docs/reliability.md): kill -9 of `bootbench run` at 20 pseudo-random points
# (seeded: the same points every time) during a real small matrix. After each kill: PRAGMA
# integrity_check is ok and no qemu of this test is left. Then the run is resumed to the end:
# every sample is stored exactly once, in the one run.
. "$(dirname "$0")/../integration/lib.sh"

kills=${KILLS:-20}
RANDOM=${KILL_SEED:-42}
# The smoke-matrix kernel (cached after integration.run_matrix), 2 cells x 20 repeats: more
# samples than 20 kills let finish, so every kill lands in a run that still has work.
cat >"$work/exp.yaml" <<YAML
name: kill-resume
kernel:
  arch: arm64
  variants:
    - name: stock
axes:
  hz: [250]
  cmdline:
    srcutree.srcu_max_nodelay_phase: [100, 1000]
  smp: [1]
  firmware: [QEMU_EFI.fd]
  machine: ["virt,acpi=off"]
repeats: 20
timeout: 120
silence: 60
seed: 7
YAML
expected=40

alive() { # pids -> those still running (a zombie waiting to be reaped is dead)
  local pid
  for pid in "$@"; do
    if [ -e "/proc/$pid" ] && ! grep -q ') Z ' "/proc/$pid/stat" 2>/dev/null; then echo "$pid"; fi
  done
}
stored() { q "select count(*) from boots"; }

# The kernel is smoke-matrix's (same source, config and toolchain: the same build key), built
# by integration.run_matrix, so the kills land in booting and storing, not in make.
for i in $(seq 1 "$kills"); do
  # 0.3 … 5.0 s into the run: opening the store, building the image, mid-boot, mid-store.
  tenths=$((3 + RANDOM % 48))
  delay=$((tenths / 10)).$((tenths % 10))
  "$BOOTBENCH" run "$work/exp.yaml" --slots 1 >>"$work/runs.log" 2>&1 &
  pid=$!
  sleep "$delay"
  guests=$(pgrep -P "$pid" -f qemu-system || true) # the guest booting right now, if any
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # The guest dies with its parent (PR_SET_PDEATHSIG); give the kernel a moment to reap it.
  # shellcheck disable=SC2086 # a list of pids
  for _ in $(seq 1 50); do [ -z "$(alive $guests)" ] && break; sleep 0.1; done
  # shellcheck disable=SC2086
  [ -z "$(alive $guests)" ] || fail "kill $i: a qemu survived: $(alive $guests)"
  integrity=$(q "pragma integrity_check")
  expect_eq "$integrity" ok "kill $i: integrity_check"
  printf 'kill %2d at %4ss: %2d/%d samples stored, integrity %s, no qemu left\n' \
    "$i" "$delay" "$(stored)" "$expected" "$integrity"
done
[ "$(stored)" -lt "$expected" ] || fail "the run finished before the last kill: add repeats"

"$BOOTBENCH" run "$work/exp.yaml" --slots 1 >>"$work/runs.log" 2>&1 ||
  fail "resume after the kills: $(tail -5 "$work/runs.log")"
expect_eq "$(stored)" "$expected" "samples after the final resume"
expect_eq "$(q "select count(*) from runs")" 1 "every resume continued the same run"
expect_eq "$(q "select status from runs")" done "run status"
expect_eq "$(q "select count(*) from boots where outcome != 'ok' or params_not_applied is not null")" \
  0 "failed samples"
expect_eq "$(q "select count(*) from (select cell_key, repeat_index from boots
                                       group by 1, 2 having count(*) > 1)")" 0 "duplicated samples"
expect_eq "$(q "select count(distinct cell_key || '/' || repeat_index) from boots")" "$expected" \
  "distinct (cell, repeat) samples"
expect_eq "$(q "pragma integrity_check")" ok "final integrity_check"
echo "PASS: $kills kills, $(stored)/$expected samples, each exactly once"
