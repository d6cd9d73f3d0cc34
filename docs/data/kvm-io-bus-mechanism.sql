-- docs/results/kvm-io-bus.md, the declared run (kvm-io-bus): per cell (L1 kernel, HZ), the median over the used boots of
-- L2's boot time (the endpoint) and of what L1's probes counted in the same boots (guest/l1_srcu_probes.cpp): the
-- I/O-bus registrations and unregistrations L2's devices caused, the synchronize_srcu_expedited() calls made from
-- each site and the time they blocked, SRCU callbacks whose grace period was delayed, and whether L1's kernel has
-- the series' functions; the mean of the middle two when n is even.
--   bootbench query --db docs/data/kvm-io-bus.sqlite --format md --file THIS
with used as (
  select boot_id, variant, hz, boot_seconds, foreign_load
  from v_samples where used = 1 and experiment = 'kvm-io-bus'),
per_boot as (
  select variant, hz, 'boot_seconds' as name, boot_seconds as value from used
  union all
  select variant, hz, 'foreign_load', foreign_load from used
  union all
  select u.variant, u.hz, m.name, m.value
  from used u join metrics m on m.boot_id = u.boot_id
  where m.name in ('l1_kvm_io_bus_register_calls', 'l1_kvm_io_bus_unregister_calls',
                   'l1_srcu_exp_register_calls', 'l1_srcu_exp_register_blocked_seconds',
                   'l1_srcu_exp_unregister_calls', 'l1_srcu_exp_unregister_blocked_seconds',
                   'l1_srcu_exp_memslots_calls', 'l1_srcu_exp_memslots_blocked_seconds',
                   'srcu_expedited_calls', 'l1_srcu_exp_blocked_seconds', 'l1_srcu_cb_delayed',
                   'l1_has_free_bus', 'l1_has_call_srcu_expedited')),
ranked as (
  select *, row_number() over (partition by variant, hz, name order by value) as k,
         count(*) over (partition by variant, hz, name) as n
  from per_boot),
med as (
  select variant, hz, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by variant, hz, name),
rows(i, label, name, scale, fmt) as (values
  (1, 'used boots (n)', 'boot_seconds', 1, 'n'),
  (2, 'L2 boot (s): the endpoint', 'boot_seconds', 1, '%.2f'),
  (3, 'foreign load (share of the host)', 'foreign_load', 1, '%.3f'),
  (4, 'I/O-bus registrations', 'l1_kvm_io_bus_register_calls', 1, '%.0f'),
  (5, '… their expedited syncs', 'l1_srcu_exp_register_calls', 1, '%.0f'),
  (6, '… blocked (ms)', 'l1_srcu_exp_register_blocked_seconds', 0.001, '%.1f'),
  (7, 'I/O-bus unregistrations', 'l1_kvm_io_bus_unregister_calls', 1, '%.0f'),
  (8, '… their expedited syncs', 'l1_srcu_exp_unregister_calls', 1, '%.0f'),
  (9, '… blocked (ms)', 'l1_srcu_exp_unregister_blocked_seconds', 0.001, '%.1f'),
  (10, 'memslot swaps'' expedited syncs', 'l1_srcu_exp_memslots_calls', 1, '%.0f'),
  (11, '… blocked (ms): the secondary endpoint', 'l1_srcu_exp_memslots_blocked_seconds', 0.001, '%.0f'),
  (12, 'all expedited syncs', 'srcu_expedited_calls', 1, '%.0f'),
  (13, '… blocked (ms)', 'l1_srcu_exp_blocked_seconds', 0.001, '%.0f'),
  (14, 'SRCU callbacks delayed', 'l1_srcu_cb_delayed', 1, '%.0f'),
  (15, 'L1 has __free_bus (7d9a0273c459)', 'l1_has_free_bus', 1, '%.0f'),
  (16, 'L1 has call_srcu_expedited (RFC)', 'l1_has_call_srcu_expedited', 1, '%.0f')),
cells as (
  select r.i, r.label, x.variant, x.hz,
         case r.fmt when 'n' then printf('%d', x.n) else printf(r.fmt, x.m / r.scale) end as cell
  from rows r join med x on x.name = r.name)
select label as "per boot, median",
       coalesce(max(case when variant = 'stock' and hz = 100 then cell end), '-') as "stock 100",
       coalesce(max(case when variant = 'callsrcu' and hz = 100 then cell end), '-') as "callsrcu 100",
       coalesce(max(case when variant = 'expedited' and hz = 100 then cell end), '-') as "exp. 100",
       coalesce(max(case when variant = 'stock' and hz = 250 then cell end), '-') as "stock 250",
       coalesce(max(case when variant = 'callsrcu' and hz = 250 then cell end), '-') as "callsrcu 250",
       coalesce(max(case when variant = 'expedited' and hz = 250 then cell end), '-') as "exp. 250",
       coalesce(max(case when variant = 'stock' and hz = 1000 then cell end), '-') as "stock 1000",
       coalesce(max(case when variant = 'callsrcu' and hz = 1000 then cell end), '-') as "callsrcu 1000",
       coalesce(max(case when variant = 'expedited' and hz = 1000 then cell end), '-') as "exp. 1000"
from cells group by i order by i
