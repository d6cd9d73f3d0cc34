-- docs/results/srcu.md section 6: per L2 run, the median over the used boots of each A/B
-- (2 writes: srcu-efivar-ab; 12 writes: srcu-efivar-ab12) of the storm and of every link of
-- the mechanism L1 measured in the same boots (the mean of the middle two when n is even).
--   bootbench query --db docs/data/seed000-efivar.sqlite --format md --file THIS
with vals as (
  select v.experiment, v.variant, m.name, m.value
  from v_samples v join metrics m on m.boot_id = v.boot_id where v.used = 1
  union all
  select experiment, variant, 'boot_seconds', boot_seconds from v_samples where used = 1),
ranked as (
  select *, row_number() over (partition by experiment, variant, name order by value) as k,
         count(*) over (partition by experiment, variant, name) as n
  from vals),
med as (
  select experiment || ' ' || variant as col, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by experiment, variant, name),
rows(i, label, name, fmt) as (values
  (1, 'used boots (n)', 'efivar_storm_seconds', 'n'),
  (2, 'storm, host time (s)', 'efivar_storm_seconds', '%.2f'),
  (3, 'L2 boot time (s; exploratory)', 'boot_seconds', '%.2f'),
  (4, 'synchronize_srcu_expedited() calls (boot + storm)', 'srcu_expedited_calls', '%d'),
  (5, '... of them timed', 'l1_srcu_exp_timed_calls', '%d'),
  (6, 'time blocked in the calls (s)', 'l1_srcu_exp_blocked_seconds', '%.2f'),
  (7, 'readers found', 'l1_srcu_readers_found', '%d'),
  (8, 'reader checks', 'l1_srcu_reader_checks', '%d'),
  (9, 'grace-period work delayed (times)', 'l1_srcu_gp_work_delayed', '%g'),
  (10, 'grace-period work delay (jiffies)', 'l1_srcu_gp_work_delay_jiffies', '%g'),
  (11, 'delayed callback invocations', 'l1_srcu_cb_delayed', '%g'),
  (12, 'L2''s qemu run in L1 (s)', 'l2_run_seconds', '%.2f')),
cells as (
  select r.i, r.label, x.col,
         case r.fmt when 'n' then printf('%d', x.n)
                    when '%d' then printf('%,d', cast(round(x.m) as integer))
                    else printf(r.fmt, x.m) end as cell
  from rows r join med x on x.name = r.name)
select label as "per L2 run, median",
       max(case when col = 'srcu-efivar-ab fixed-full' then cell end) as "2 writes: fixed-full",
       max(case when col = 'srcu-efivar-ab before-full' then cell end) as "2 writes: before-full",
       max(case when col = 'srcu-efivar-ab12 fixed-full' then cell end) as "12 writes: fixed-full",
       max(case when col = 'srcu-efivar-ab12 before-full' then cell end) as "12 writes: before-full"
from cells group by i order by i
