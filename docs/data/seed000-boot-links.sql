-- docs/results/srcu.md section 0: per experiment and variant, the median over the used boots of
-- L2's boot time and of every link of the seed's mechanism L1 measured in the same boots, with
-- the time (of L2's boot) that is not spent blocked in synchronize_srcu_expedited(): the
-- declared run (calls probes) beside the mechanism probe (every L1 probe). A metric a probe set
-- does not measure is empty. Medians are the mean of the middle two when n is even.
--   bootbench query --db docs/data/seed000-boot.sqlite --format md --file THIS
with vals as (
  select v.experiment, v.variant, m.name, m.value
  from v_samples v join metrics m on m.boot_id = v.boot_id
  where v.used = 1 and v.experiment in ('srcu-boot', 'srcu-boot-probes')
  union all
  select experiment, variant, 'boot_seconds', boot_seconds from v_samples
  where used = 1 and experiment in ('srcu-boot', 'srcu-boot-probes')
  union all
  select experiment, variant, 'wall_seconds', wall_seconds from v_samples
  where used = 1 and experiment in ('srcu-boot', 'srcu-boot-probes')
  union all
  select v.experiment, v.variant, 'per_call_ms', 1000 * b.value / c.value
  from v_samples v join metrics b on b.boot_id = v.boot_id and b.name = 'l1_srcu_exp_blocked_seconds'
  join metrics c on c.boot_id = v.boot_id and c.name = 'srcu_expedited_calls'
  where v.used = 1 and v.experiment in ('srcu-boot', 'srcu-boot-probes')
  union all
  select v.experiment, v.variant, 'unblocked_seconds', v.boot_seconds - b.value
  from v_samples v join metrics b on b.boot_id = v.boot_id and b.name = 'l1_srcu_exp_blocked_seconds'
  where v.used = 1 and v.experiment in ('srcu-boot', 'srcu-boot-probes')),
ranked as (
  select *, row_number() over (partition by experiment, variant, name order by value) as k,
         count(*) over (partition by experiment, variant, name) as n
  from vals),
med as (
  select experiment || ' ' || variant as col, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by experiment, variant, name),
rows(i, label, name, fmt) as (values
  (1, 'used boots (n)', 'boot_seconds', 'n'),
  (2, 'L2 boot time (s)', 'boot_seconds', '%.2f'),
  (3, 'synchronize_srcu_expedited() calls', 'srcu_expedited_calls', '%d'),
  (4, 'time blocked in the calls (s)', 'l1_srcu_exp_blocked_seconds', '%.2f'),
  (5, '... per call (ms)', 'per_call_ms', '%.2f'),
  (6, 'L2 boot not blocked in the calls (s)', 'unblocked_seconds', '%.2f'),
  (7, 'grace periods started', 'l1_srcu_gps_started', '%d'),
  (8, 'delayed callback invocations', 'l1_srcu_cb_delayed', '%g'),
  (9, 'readers found', 'l1_srcu_readers_found', '%d'),
  (10, 'reader checks', 'l1_srcu_reader_checks', '%d'),
  (11, 'grace-period work delayed (times)', 'l1_srcu_gp_work_delayed', '%g'),
  (12, 'L1 wall time of the sample (s)', 'wall_seconds', '%.1f'))
select r.label as "per boot, median",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'srcu-boot stock-full' and name = r.name), '—') as "declared: stock-full",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'srcu-boot before-full' and name = r.name), '—') as "declared: before-full",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'srcu-boot-probes stock-full' and name = r.name), '—') as "every probe: stock-full",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'srcu-boot-probes before-full' and name = r.name), '—') as "every probe: before-full"
from rows r order by r.i
