-- docs/results/rcu.md section 4, the declared run (rcu-wake-from-gp-load): per cell (callback load × variant), the
-- median over the used boots of the endpoint (each boot's p50 over its 64 callers' calls) and of the latency's parts
-- the same boots measured (sync_rcu.split=1): the wait for the next grace period to start, the
-- grace period, and the wake step after it (each a per-boot p50 over the boot's calls), in ms;
-- the mean of the middle two when n is even.
--   bootbench query --db docs/data/seed002-load.sqlite --format md --file THIS
with vals as (
  select json_extract(v.params_json, '$."sync_rcu.cb_load"') as load, v.variant, m.name, m.value
  from v_samples v join metrics m on m.boot_id = v.boot_id
  where v.used = 1 and v.experiment = 'rcu-wake-from-gp-load'),
ranked as (
  select *, row_number() over (partition by load, variant, name order by value) as k,
         count(*) over (partition by load, variant, name) as n
  from vals),
med as (
  select load, variant, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by load, variant, name),
rows(i, label, name, scale, fmt) as (values
  (1, 'used boots (n)', 'sync_rcu_us_p50', 1, 'n'),
  (2, 'p50 of the calls (ms): the endpoint', 'sync_rcu_us_p50', 1000, '%.2f'),
  (3, 'p99 of the calls (ms)', 'sync_rcu_us_p99', 1000, '%.1f'),
  (4, 'wait for the next GP start, p50 (ms)', 'sync_rcu_wait_start_us_p50', 1000, '%.2f'),
  (5, 'grace period, p50 (ms)', 'sync_rcu_gp_us_p50', 1000, '%.2f'),
  (6, 'grace period, p90 (ms)', 'sync_rcu_gp_us_p90', 1000, '%.1f'),
  (7, 'wake step after the GP, p50 (ms)', 'sync_rcu_wake_step_us_p50', 1000, '%.2f'),
  (8, 'wake step after the GP, p99 (ms)', 'sync_rcu_wake_step_us_p99', 1000, '%.1f'),
  (9, 'calls per second (64 threads)', 'sync_rcu_calls_per_s', 1, '%.0f'),
  (10, 'load: files per second', 'rcu_cb_load_files_per_s', 1, '%.0f')),
cells as (
  select r.i, r.label, x.load, x.variant,
         case r.fmt when 'n' then printf('%d', x.n) else printf(r.fmt, x.m / r.scale) end as cell
  from rows r join med x on x.name = r.name)
select label as "per boot, median over boots",
       coalesce(max(case when load = 0 and variant = 'stock' then cell end), '-') as "no load: stock",
       coalesce(max(case when load = 0 and variant = 'wake-from-gp' then cell end), '-') as "no load: wake-from-gp",
       coalesce(max(case when load = 0 and variant = 'auto-enable' then cell end), '-') as "no load: auto-enable",
       coalesce(max(case when load = 2 and variant = 'stock' then cell end), '-') as "load 2: stock",
       coalesce(max(case when load = 2 and variant = 'wake-from-gp' then cell end), '-') as "load 2: wake-from-gp",
       coalesce(max(case when load = 2 and variant = 'auto-enable' then cell end), '-') as "load 2: auto-enable"
from cells group by i order by i
