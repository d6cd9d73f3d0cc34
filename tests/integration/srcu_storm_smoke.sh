#!/usr/bin/env bash
# configs/srcu-storm-smoke.yaml end to end: rcuscale built as a module travels in the guest
# image, the workload loads it with the command line's rcuscale.* parameters after the boot
# marker, and the whole-run count, the per-GP histogram with its percentiles and the workload's
# own METRIC lines are stored for both kernels.
. "$(dirname "$0")/lib.sh"
config=$(dirname "$0")/../../configs/srcu-storm-smoke.yaml

"$BOOTBENCH" run "$config" --seed 1
expect_eq "$(q "select count(*) from boots where outcome = 'ok'")" 2 "both boots ok"
for variant in fixed before; do
  where="b.outcome = 'ok' and json_extract(b.params_json, '$.variant') = '$variant'"
  batches=$(q "select m.value from metrics m join boots b on b.id = m.boot_id where $where and m.name = 'srcu_batches'")
  [ -n "$batches" ] && awk -v n="$batches" 'BEGIN { exit !(n > 0) }' || fail "$variant: srcu_batches '$batches'"
  gps=$(q "select cast(sum(h.count) as int) from histograms h join boots b on b.id = h.boot_id where $where and h.name = 'srcu_exp_gp_us'")
  n=$(q "select cast(m.value as int) from metrics m join boots b on b.id = m.boot_id where $where and m.name = 'srcu_exp_gp_us_n'")
  [ "${gps:-0}" -gt 100 ] || fail "$variant: histogram holds ${gps:-0} grace periods"
  expect_eq "$gps" "$n" "$variant: histogram count = srcu_exp_gp_us_n"
  for m in srcu_exp_gp_us_p50 srcu_exp_gp_us_p99 seconds_per_6000_batches srcu_batches_per_s; do
    expect_eq "$(q "select count(*) from metrics m join boots b on b.id = m.boot_id where $where and m.name = '$m'")" 1 "$variant: $m stored"
  done
done
expect_eq "$(q "select cast(m.value as int) from metrics m join boots b on b.id = m.boot_id where json_extract(b.params_json, '$.variant') = 'before' and m.name = 'srcu_max_nodelay_phase'")" 3 \
  "the before (640a7d37) kernel runs with three no-delay polls per phase"
expect_eq "$(q "select cast(m.value as int) from metrics m join boots b on b.id = m.boot_id where json_extract(b.params_json, '$.variant') = 'fixed' and m.name = 'srcu_max_nodelay_phase'")" 1000 \
  "stock 6.12 clamps the no-delay phase to 1000 at HZ=250"
no_qemu_left
echo PASS
