#!/usr/bin/env bash
# The nested topology end to end: a built arm64 KVM-host kernel boots as L1 under TCG, starts L2
# under KVM from its initramfs, and the run stores L2's boot time (l2-start -> L2's boot-done),
# L1's SRCU activity during L2's run (guest/l1_srcu_probes.cpp: synchronize_srcu_expedited()
# calls, each one's duration as a histogram, blocked time, reader checks, process_srcu passes,
# callback invocations), L1's own timings, and L2's EFI-variable write storm (efivar-storm.sh:
# efivarfs from nested.l2_modules, /bin/efivar_storm from guest.programs, its phase timed on the
# host from its markers).
. "$(dirname "$0")/lib.sh"
config=$(dirname "$0")/../../configs/smoke-nested.yaml

"$BOOTBENCH" run "$config" --validate | has_match ": ok" || fail "validate"
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
m() { q "select value from metrics where name = '$1'"; }
n() { q "select cast(value as integer) from metrics where name = '$1'"; }
echo "L1 SRCU during L2's run: $(m srcu_expedited_calls) expedited calls ($(m l1_srcu_exp_timed_calls) timed, $(m l1_srcu_exp_structs) srcu_structs, busiest $(m l1_srcu_exp_busiest_calls)), blocked $(m l1_srcu_exp_blocked_seconds) s, max $(m l1_srcu_exp_max_us) us; readers found $(m l1_srcu_readers_found) of $(m l1_srcu_reader_checks) checks; $(m l1_process_srcu_passes) process_srcu passes for $(m l1_srcu_gps_started) GPs; $(m l1_srcu_cb_invocations) callback runs ($(m l1_srcu_cb_delayed) delayed); grace-period work queued $(m l1_srcu_gp_work_delayed) times with a delay ($(m l1_srcu_gp_work_delay_jiffies) jiffies)"
echo "L1's SRCU report (l2-exit to l1-end, guest clock): $(q "select round(e.guest_seconds - x.guest_seconds, 2) from boot_events x join boot_events e on e.boot_id = x.boot_id where x.text = 'l2-exit' and e.text = 'l1-end'") s"
echo "l1_srcu_exp_us (lo:count): $(q "select group_concat(cast(lo as integer) || ':' || count, ' ') from (select lo, count from histograms where name = 'l1_srcu_exp_us' order by lo)")"
for name in l1_srcu_exp_timed_calls l1_srcu_exp_blocked_seconds l1_srcu_exp_max_us \
  l1_srcu_exp_structs l1_srcu_exp_busiest_calls l1_srcu_reader_checks l1_srcu_readers_found \
  l1_process_srcu_passes l1_srcu_gps_started l1_srcu_cb_invocations l1_srcu_cb_delayed \
  l1_srcu_gp_work_delayed l1_srcu_gp_work_delay_jiffies; do
  expect_eq "$(q "select count(*) from metrics where name = '$name' and value >= 0")" 1 "$name stored"
done
# The 4 MiB trace buffer holds every call: each one is timed, once, in the histogram.
expect_eq "$(n l1_srcu_exp_timed_calls)" "$(n srcu_expedited_calls)" "every expedited call timed"
expect_eq "$(q "select sum(count) from histograms where name = 'l1_srcu_exp_us'")" \
  "$(n srcu_expedited_calls)" "l1_srcu_exp_us histogram count == calls"
expect_eq "$(q "select count(*) from histograms where name = 'l1_srcu_exp_us' and hi - lo <> 50")" 0 \
  "50 us buckets"
# The calls are serialised by their callers' locks: together they block less than L2's run, and
# the longest is part of the total.
expect_eq "$(q "select count(*) from metrics b join metrics r on r.boot_id = b.boot_id
                where b.name = 'l1_srcu_exp_blocked_seconds' and r.name = 'l2_run_seconds'
                and b.value > 0 and b.value < r.value")" 1 "0 < blocked seconds < L2's run"
expect_eq "$(q "select count(*) from metrics x join metrics b on b.boot_id = x.boot_id
                where x.name = 'l1_srcu_exp_max_us' and b.name = 'l1_srcu_exp_blocked_seconds'
                and x.value > 0 and x.value <= b.value * 1e6 + 1")" 1 "0 < max <= blocked"
expect_eq "$(q "select count(*) from metrics where name = 'l1_srcu_exp_busiest_calls'
                and value > 0 and value <= (select value from metrics where name = 'srcu_expedited_calls')")" 1 \
  "busiest srcu_struct's calls within the total"
expect_eq "$(q "select count(*) from metrics f join metrics c on c.boot_id = f.boot_id
                where f.name = 'l1_srcu_readers_found' and c.name = 'l1_srcu_reader_checks'
                and f.value <= c.value and c.value > 0")" 1 "readers found <= reader checks > 0"
# Every grace period takes at least one process_srcu pass; an expedited call's callback runs.
expect_eq "$(q "select count(*) from metrics p join metrics g on g.boot_id = p.boot_id
                where p.name = 'l1_process_srcu_passes' and g.name = 'l1_srcu_gps_started'
                and g.value > 0 and p.value >= g.value")" 1 "passes >= grace periods > 0"
expect_eq "$(q "select count(*) from metrics where name = 'l1_srcu_cb_invocations' and value > 0")" 1 \
  "SRCU callback invocations"
# L1's notes: one line per srcu_struct; none says a probe was refused on this kernel.
q "select writefile('$work/console.gz', console_gz) from boots" >/dev/null
zcat "$work/console.gz" | tr -d '\r' | grep '^bootbench: ' >"$work/l1-notes" || true
cat "$work/l1-notes"
grep -q '^bootbench: srcu_struct 0x[0-9a-f]*: [0-9]* expedited calls' "$work/l1-notes" ||
  fail "no per-srcu_struct line from L1"
! grep -E 'not measured|no probe' "$work/l1-notes" || fail "an SRCU probe was not taken in L1"
expect_eq "$(q "select count(*) from metrics where name = 'l1_boot_seconds' and value > 0")" 1 \
  "L1 boot time"
# The span is L2's: it starts after L1 booted and ends before L1 does.
expect_eq "$(q "select count(*) from boots b join metrics m on m.boot_id = b.id
                where m.name = 'l1_boot_seconds' and b.boot_seconds < b.wall_seconds - m.value")" 1 \
  "L2 span inside L1's run"
expect_eq "$(q "select count(*) from boot_events where kind = 'marker' and text in ('l1-boot-done', 'l2-start', 'boot-done', 'l1-end')")" 4 \
  "L1 and L2 markers"
expect_eq "$(q "select count(*) from boots where argv_json like '%virtualization=on%'")" 1 "L1 machine"
# The storm: 2 timed SetVariable() calls, none failed, timed between L2's markers on the host
# clock; each write programs flash, so it adds memslot changes beyond the boot's.
echo "efivar storm: $(m efivar_storm_seconds) s for $(n efivar_write_us_n) writes (p50 $(m efivar_write_us_p50) us)"
expect_eq "$(n efivar_write_us_n)" 2 "timed variable writes"
expect_eq "$(n efivar_storm_failed)" 0 "failed variable writes"
expect_eq "$(q "select count(*) from metrics s join boots b on b.id = s.boot_id
                where s.name = 'efivar_storm_seconds' and s.value > 0
                and s.host_seconds < b.wall_seconds")" 1 "storm phase on the host clock"
expect_eq "$(q "select count(*) from boot_events where kind = 'marker' and text in ('efivar-storm-start', 'efivar-storm-end')")" 2 \
  "storm markers"
# L2's virtio devices (nested.l2_devices) register their queues' ioeventfds on L1's I/O bus. Stock
# 6.12 synchronize_srcu_expedited()s in every kvm_io_bus_register_dev() (kernels/patches/kvm-io-bus
# removes it), so the probes attribute exactly one blocking call to each registration.
echo "L1 I/O bus: $(n l1_kvm_io_bus_register_calls) registrations ($(n l1_srcu_exp_register_calls) expedited syncs, $(m l1_srcu_exp_register_blocked_seconds) s blocked), $(n l1_kvm_io_bus_unregister_calls) unregistrations, memslot swaps' syncs $(n l1_srcu_exp_memslots_calls) ($(m l1_srcu_exp_memslots_blocked_seconds) s)"
expect_eq "$(q "select count(*) from metrics where name = 'l1_kvm_io_bus_register_calls' and value >= 8")" 1 \
  "I/O-bus registrations (virtio-blk and virtio-net queues)"
expect_eq "$(n l1_srcu_exp_register_calls)" "$(n l1_kvm_io_bus_register_calls)" \
  "one expedited sync per registration on stock"
expect_eq "$(n l1_has_free_bus)" 0 "stock has no __free_bus (7d9a0273c459)"
build=$(q "select build_key from boots")
grep -q '^CONFIG_KVM=y' "${BOOTBENCH_CACHE:-/var/cache/bootbench}/builds/$build/config" ||
  fail "the L1 kernel was built without KVM"
# The nested sample replays from its repro script: the same L1 argv, timed from L2's start.
expect_eq "$(q "select start_marker || ' ' || timing_marker from boots")" "l2-start boot-done" \
  "the markers the boot was timed between"
"$BOOTBENCH" repro "$(q "select id from boots")" --run >"$work/repro.out"
grep -Eq '^marker boot-done after [0-9.]+ s; stored [0-9.]+ s \([0-9.]+x\)$' "$work/repro.out" ||
  fail "the nested replay printed no time: $(tail -n 5 "$work/repro.out")"
no_qemu_left
echo PASS
