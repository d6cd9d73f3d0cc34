#!/usr/bin/env bash
# A kernel parameter that did not take is flagged, named and left out of the statistics; one
# that took is not. Boots Debian's prebuilt x86_64 cloud kernel (TCG) twice.
. "$(dirname "$0")/../integration/lib.sh"

# no_timer_check: under TCG on a busy host the IO-APIC timer check can fail and panic the boot.
# printk.time=1 takes (a bool that reads back as Y); the other three do not:
# rcutree has no such parameter, nosuchmod is no module of this kernel, and Linux itself
# reports the plain unknown word.
set +e
"$BOOTBENCH" boot --arch x86_64 --accel tcg -n 1 \
  --append 'no_timer_check printk.time=1 rcutree.no_such_param=1 nosuchmod.x=1 bootbench_no_such_flag' \
  >"$work/out" 2>"$work/err"
status=$?
set -e
expect_eq "$status" 1 "exit status of a boot whose parameters did not take"
grep -q "param-not-applied: rcutree.no_such_param=1 (module rcutree has no parameter no_such_param)" \
  "$work/out" "$work/err" || fail "no warning naming rcutree.no_such_param: $(cat "$work/out" "$work/err")"
flag=$(q "select params_not_applied from boots order by id desc limit 1")
case "$flag" in *"nosuchmod.x=1 (no module nosuchmod"*) ;; *) fail "nosuchmod not flagged: $flag" ;; esac
case "$flag" in *"bootbench_no_such_flag (the kernel reported it as unknown)"*) ;;
  *) fail "plain unknown parameter not flagged: $flag" ;; esac
case "$flag" in *printk.time*) fail "printk.time=1 took but was flagged: $flag" ;; esac
expect_eq "$(q "select outcome from boots order by id desc limit 1")" ok "outcome (the boot itself ran)"
expect_eq "$(q "select used from v_samples order by boot_id desc limit 1")" 0 "used by the views"
flagged_run=$(q "select run_id from boots order by id desc limit 1")
"$BOOTBENCH" report --run "$flagged_run" >"$work/report" 2>&1 || true
grep -q "warning: 1 boot did not run as configured, param-not-applied: rcutree.no_such_param=1" \
  "$work/report" || fail "report does not show the parameter: $(cat "$work/report")"

# Every parameter takes: nothing flagged, exit 0.
"$BOOTBENCH" boot --arch x86_64 --accel tcg -n 1 --append 'no_timer_check printk.time=1' >"$work/out" 2>&1 ||
  fail "a boot whose parameters took failed: $(cat "$work/out")"
expect_eq "$(q "select params_not_applied is null from boots order by id desc limit 1")" 1 \
  "flag of a boot whose parameters took"
no_qemu_left
echo PASS
