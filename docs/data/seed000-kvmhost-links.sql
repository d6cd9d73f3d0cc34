-- docs/results/srcu.md section 0: the declared HZ 100/250/1000 run on the smallest KVM-host L1
-- (configs/srcu-boot-kvmhost.yaml). Per HZ and variant, the median over the used boots of L2's
-- boot time and of every link of the seed's mechanism that L1 measured in the same boots (the
-- calls probe set), with the part of L2's boot not spent blocked in synchronize_srcu_expedited().
-- Medians are the mean of the middle two when n is even.
--   bootbench query --db docs/data/seed000-kvmhost.sqlite --format md --file THIS
with used as (
  select * from v_samples where used = 1 and experiment = 'srcu-boot-kvmhost'),
vals as (
  select u.hz, u.variant, m.name, m.value
  from used u join metrics m on m.boot_id = u.boot_id
  union all
  select hz, variant, 'boot_seconds', boot_seconds from used
  union all
  select hz, variant, 'wall_seconds', wall_seconds from used
  union all
  select u.hz, u.variant, 'per_call_ms', 1000 * b.value / c.value
  from used u join metrics b on b.boot_id = u.boot_id and b.name = 'l1_srcu_exp_blocked_seconds'
  join metrics c on c.boot_id = u.boot_id and c.name = 'srcu_expedited_calls'
  union all
  select u.hz, u.variant, 'unblocked_seconds', u.boot_seconds - b.value
  from used u join metrics b on b.boot_id = u.boot_id and b.name = 'l1_srcu_exp_blocked_seconds'
  union all
  select u.hz, u.variant, 'delayed_per_call', d.value / c.value
  from used u join metrics d on d.boot_id = u.boot_id and d.name = 'l1_srcu_cb_delayed'
  join metrics c on c.boot_id = u.boot_id and c.name = 'srcu_expedited_calls'),
ranked as (
  select *, row_number() over (partition by hz, variant, name order by value) as k,
         count(*) over (partition by hz, variant, name) as n
  from vals),
med as (
  select variant || ' ' || hz as col, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by hz, variant, name),
rows(i, label, name, fmt) as (values
  (1, 'used boots (n)', 'boot_seconds', 'n'),
  (2, 'L2 boot time (s)', 'boot_seconds', '%.1f'),
  (3, 'calls', 'srcu_expedited_calls', '%d'),
  (4, 'blocked in the calls (s)', 'l1_srcu_exp_blocked_seconds', '%.1f'),
  (5, '... per call (ms)', 'per_call_ms', '%.2f'),
  (6, 'boot not blocked (s)', 'unblocked_seconds', '%.1f'),
  (7, 'grace periods started', 'l1_srcu_gps_started', '%d'),
  (8, 'delayed callback runs', 'l1_srcu_cb_delayed', '%d'),
  (9, '... per call', 'delayed_per_call', '%.2f'),
  (10, 'L1 wall time (s)', 'wall_seconds', '%.1f'))
select r.label as "per boot, median",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'stock 100' and name = r.name), '—') as "HZ 100 stock",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'before 100' and name = r.name), '—') as "HZ 100 before",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'stock 250' and name = r.name), '—') as "HZ 250 stock",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'before 250' and name = r.name), '—') as "HZ 250 before",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'stock 1000' and name = r.name), '—') as "HZ 1000 stock",
  coalesce((select case when r.fmt = 'n' then cast(n as text) else printf(r.fmt, m) end
            from med where col = 'before 1000' and name = r.name), '—') as "HZ 1000 before"
from rows r order by r.i
