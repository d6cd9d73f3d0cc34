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
  fragments: $smoke_fragments
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

stored() { q "select count(*) from boots"; }

# The kernel is smoke-matrix's (same source, config and toolchain: the same build key), built
# by integration.run_matrix, so the kills land in booting and storing, not in make.
guest_kills=0
for i in $(seq 1 "$kills"); do
  # 0.3 … 5.0 s into the run: opening the store, building the image, mid-boot, mid-store.
  tenths=$((3 + RANDOM % 48))
  delay=$((tenths / 10)).$((tenths % 10))
  "$BOOTBENCH" run "$work/exp.yaml" --slots 1 >>"$work/runs.log" 2>&1 &
  pid=$!
  sleep "$delay"
  guest=$(test_qemus) # found by the tag it inherited, wherever it is in the process tree
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ -n "$guest" ]; then guest_kills=$((guest_kills + 1)); fi
  # The guest dies with its parent (PR_SET_PDEATHSIG). Any qemu of this test counts, also one
  # spawned between the look above and the kill.
  no_qemu_left 5 "kill $i"
  integrity=$(q "pragma integrity_check")
  expect_eq "$integrity" ok "kill $i: integrity_check"
  printf 'kill %2d at %4ss: %2d/%d samples stored, integrity %s, %s, no qemu left\n' \
    "$i" "$delay" "$(stored)" "$expected" "$integrity" \
    "$([ -n "$guest" ] && echo "guest $(echo $guest) running" || echo "no guest running")"
done
[ "$(stored)" -lt "$expected" ] || fail "the run finished before the last kill: add repeats"
# Kills that all land outside a boot would leave the qemu check untested.
[ "$guest_kills" -ge 1 ] || fail "no kill landed while a guest was running"

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
no_qemu_left
echo "PASS: $kills kills ($guest_kills during a boot), $(stored)/$expected samples, each exactly once"
