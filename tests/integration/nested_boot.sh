#!/usr/bin/env bash
# The nested topology end to end: a built arm64 KVM-host kernel boots as L1 under TCG, starts L2
# under KVM from its initramfs, and the run stores L2's boot time (l2-start -> L2's boot-done),
# the synchronize_srcu_expedited() count of L2's boot and L1's own timings.
. "$(dirname "$0")/lib.sh"
config=$(dirname "$0")/../../configs/smoke-nested.yaml

"$BOOTBENCH" run "$config" --validate | grep -q ": ok" || fail "validate"
"$BOOTBENCH" run "$config" >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "run"; }
grep -q "L1 image: " "$work/run.log" || fail "no L1 image note"
expect_eq "$(q "select count(*) from boots")" 1 "samples stored"
expect_eq "$(q "select outcome from boots")" ok "outcome ($(q "select outcome_reason from boots"))"
echo "L2 boot $(q "select round(boot_seconds, 1) from boots") s, L1 run $(q "select round(wall_seconds, 1) from boots") s, srcu_expedited_calls $(q "select value from metrics where name = 'srcu_expedited_calls'"), foreign load $(q "select round(foreign_load, 2) from boots")"
# Within the experiment's timeout (an "ok" outcome says so): the host may be busy.
expect_eq "$(q "select count(*) from boots where boot_seconds > 1 and boot_seconds < 300")" 1 \
  "plausible L2 boot time"
expect_eq "$(q "select count(*) from metrics where name = 'srcu_expedited_calls' and value > 0")" 1 \
  "srcu_expedited_calls > 0"
expect_eq "$(q "select count(*) from metrics where name = 'l1_boot_seconds' and value > 0")" 1 \
  "L1 boot time"
# The span is L2's: it starts after L1 booted and ends before L1 does.
expect_eq "$(q "select count(*) from boots b join metrics m on m.boot_id = b.id
                where m.name = 'l1_boot_seconds' and b.boot_seconds < b.wall_seconds - m.value")" 1 \
  "L2 span inside L1's run"
expect_eq "$(q "select count(*) from boot_events where kind = 'marker' and text in ('l1-boot-done', 'l2-start', 'boot-done', 'l1-end')")" 4 \
  "L1 and L2 markers"
expect_eq "$(q "select count(*) from boots where argv_json like '%virtualization=on%'")" 1 "L1 machine"
build=$(q "select build_key from boots")
grep -q '^CONFIG_KVM=y' "${BOOTBENCH_CACHE:-/var/cache/bootbench}/builds/$build/config" ||
  fail "the L1 kernel was built without KVM"
no_qemu_left
echo PASS
