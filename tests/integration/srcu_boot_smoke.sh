#!/usr/bin/env bash
# Seed 000's boot-time setup end to end (issue 28): the run fills a UEFI variable store once
# under TCG (artifacts/varstore_template.cpp, cached), L1's /init copies it to pflash unit 1 before
# every timed L2 boot, and L2's firmware must reclaim it before its kernel starts. The check is
# the seed's: more than 6000 synchronize_srcu_expedited() calls in L1 inside L2's own run (L2 has
# no workload: its run is its boot), against ~1080 from a blank store (nested_boot.sh's setup).
. "$(dirname "$0")/lib.sh"
config=$(dirname "$0")/../../configs/srcu-boot-smoke.yaml

"$BOOTBENCH" run "$config" >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "run"; }
grep -q "store: BOOTBENCH-VARSTORE full live=4 rewrites=" "$work/run.log" ||
  fail "no full-store note: $(grep 'L1 image' "$work/run.log")"
expect_eq "$(q "select outcome from boots")" ok "outcome ($(q "select outcome_reason from boots"))"
calls=$(q "select cast(value as integer) from metrics where name = 'srcu_expedited_calls'")
echo "L2 boot $(q "select round(boot_seconds, 1) from boots") s with $calls synchronize_srcu_expedited() calls in L1; L2's run $(q "select round(value, 1) from metrics where name = 'l2_run_seconds'") s"
[ "${calls:-0}" -ge 6000 ] || fail "only ${calls:-no} expedited calls in L2's boot (want >= 6000)"
# The calls fall inside the boot: L2's run ends within a few seconds of its boot-done marker.
expect_eq "$(q "select count(*) from boots b join metrics r on r.boot_id = b.id
                where r.name = 'l2_run_seconds' and r.value - b.boot_seconds < 10")" 1 \
  "L2's run is its boot"
# A second run takes the template from the cache and makes the same store again.
"$BOOTBENCH" run "$config" --db "$work/second.sqlite" >"$work/run2.log" 2>&1 ||
  { cat "$work/run2.log"; fail "second run"; }
grep -q "filling a UEFI variable store" "$work/run2.log" && fail "the template was made twice"
calls2=$(sqlite3 "$work/second.sqlite" "select cast(value as integer) from metrics where name = 'srcu_expedited_calls'")
echo "second boot: $calls2 calls"
[ "${calls2:-0}" -ge 6000 ] || fail "the second boot made ${calls2:-no} calls"
no_qemu_left
echo PASS
