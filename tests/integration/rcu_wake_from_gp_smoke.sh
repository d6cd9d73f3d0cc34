#!/usr/bin/env bash
# Seed 002 end to end (configs/rcu-wake-from-gp-smoke.yaml and its rcuscale cross-check): the
# guest program is compiled for arm64 and put in the image, both kernels build (cached after the
# first time) and boot, and every boot stores the synchronize_rcu() latency histogram and its
# percentiles; the three variants run with the rcu_normal_wake_from_gp value they claim, beside
# the callback load of the declared run (rcu-wake-from-gp-load.yaml); then the smoke variant of
# the declared offloading run (rcu-wake-from-gp-nocb.yaml).
. "$(dirname "$0")/lib.sh"
configs=$(dirname "$0")/../../configs

"$BOOTBENCH" run "$configs/rcu-wake-from-gp-smoke.yaml"
expect_eq "$(q "select count(*) from boots where outcome = 'ok'")" 3 "ok boots (3 variants)"
expect_eq "$(q "select count(distinct boot_id) from histograms where name = 'sync_rcu_us'")" 3 \
  "boots with a sync_rcu_us histogram"
expect_eq "$(q "select count(*) from histograms where name = 'sync_rcu_us' and hi - lo <> 10000")" 0 \
  "10000 us buckets"
for suffix in n p50 p90 p99 max; do
  expect_eq "$(q "select count(*) from metrics where name = 'sync_rcu_us_$suffix' and value > 0")" 3 \
    "sync_rcu_us_$suffix in every boot"
done
# Every call lands in exactly one bucket.
expect_eq "$(q "select count(*) from boots b where (select sum(count) from histograms h where h.boot_id = b.id and h.name = 'sync_rcu_us') <> (select value from metrics m where m.boot_id = b.id and m.name = 'sync_rcu_us_n')")" 0 \
  "bucket counts add up to the number of calls"
wake_of() { # variant -> rcu_normal_wake_from_gp as the guest read it
  q "select m.value from metrics m join boots b on b.id = m.boot_id
     where m.name = 'rcu_normal_wake_from_gp' and json_extract(b.params_json, '$.variant') = '$1'"
}
expect_eq "$(wake_of stock)" 0.0 "stock runs with the default"
expect_eq "$(wake_of wake-from-gp)" 1.0 "the variant's command line turns it on"
expect_eq "$(wake_of auto-enable)" 1.0 "the patch turns it on with 2 CPUs"
expect_eq "$(q "select count(*) from metrics where name = 'rcu_normal_wake_from_gp_at_boot' and value = 1")" 1 \
  "the patched kernel prints its decision"

# The latency split (sync_rcu.split=1): every call is either split into its parts or counted as
# unmatched, a boot has grace periods, and each part is reported.
split_metric() { # boot name -> value
  echo "(select value from metrics where boot_id = $1 and name = '$2')"
}
expect_eq "$(q "select count(*) from boots b where $(split_metric b.id sync_rcu_split_calls) + $(split_metric b.id sync_rcu_split_unmatched) = $(split_metric b.id sync_rcu_us_n) and $(split_metric b.id sync_rcu_split_calls) > 0 and $(split_metric b.id sync_rcu_split_gps) > 0")" 3 \
  "every call split or counted unmatched, in every boot"
for part in wait_start gp wake_step; do
  expect_eq "$(q "select count(*) from metrics where name = 'sync_rcu_${part}_us_p50' and value >= 0")" 3 \
    "sync_rcu_${part}_us_p50 in every boot"
done

# The callback load beside the callers (sync_rcu.cb_load=2): it ran in every boot.
expect_eq "$(q "select count(*) from metrics where name = 'sync_rcu_cb_load_threads' and value = 2")" 3 \
  "two load threads in every boot"
expect_eq "$(q "select count(*) from metrics where name = 'rcu_cb_load_files_per_s' and value > 0")" 3 \
  "the load created and unlinked files in every boot"

# Callbacks are invoked in softirq on CI's kernel: no rcuo kthreads.
expect_eq "$(q "select count(*) from metrics where name = 'rcu_nocb_kthreads' and value = 0")" 3 \
  "no offloading kthreads without rcu_nocbs="

# The declared offloading run's smoke (rcu-wake-from-gp-nocb.yaml at HZ 250): its kernel has
# RCU_NOCB_CPU, rcu_nocbs=all offloads both CPUs, and the split and the load run as above.
"$BOOTBENCH" run "$configs/rcu-wake-from-gp-nocb-smoke.yaml"
nocb=$(q "select r.id from runs r join experiments e on e.id = r.experiment_id where e.name = 'rcu-wake-from-gp-nocb-smoke'")
in_nocb() { q "select count(*) from metrics m join boots b on b.id = m.boot_id where b.run_id = $nocb and $1"; }
expect_eq "$(q "select count(*) from boots where run_id = $nocb and outcome = 'ok'")" 3 "offloaded ok boots"
# rcuop/0, rcuop/1 and at least one rcuog group kthread.
expect_eq "$(in_nocb "m.name = 'rcu_nocb_kthreads' and m.value >= 3")" 3 "rcuo kthreads in every offloaded boot"
expect_eq "$(in_nocb "m.name = 'sync_rcu_wake_step_us_p50' and m.value >= 0")" 3 "the wake step in every offloaded boot"
expect_eq "$(in_nocb "m.name = 'rcu_cb_load_files_per_s' and m.value > 0")" 3 "the load in every offloaded boot"
expect_eq "$(in_nocb "m.name = 'rcu_normal_wake_from_gp' and m.value = 1")" 2 "wake-from-gp and auto-enable on"

# The cross-check: rcuscale's per-writer durations in the same histogram.
"$BOOTBENCH" run "$configs/rcu-wake-from-gp-rcuscale-smoke.yaml"
run=$(q "select r.id from runs r join experiments e on e.id = r.experiment_id where e.name = 'rcu-wake-from-gp-rcuscale-smoke'")
expect_eq "$(q "select count(*) from boots where run_id = $run and outcome = 'ok'")" 3 "rcuscale ok boots"
expect_eq "$(q "select count(distinct h.boot_id) from histograms h join boots b on b.id = h.boot_id where b.run_id = $run and h.name = 'sync_rcu_us'")" 3 \
  "rcuscale boots with a sync_rcu_us histogram"
# 16 writers, at least MIN_MEAS (100) grace periods each.
expect_eq "$(q "select count(*) from metrics m join boots b on b.id = m.boot_id where b.run_id = $run and m.name = 'sync_rcu_us_n' and m.value >= 1600")" 3 \
  "every writer's durations parsed"
echo PASS
