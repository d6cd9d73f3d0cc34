-- docs/results/rcu.md sections 4 and 5: for each declared run's cell (HZ, callback load,
-- offloading, variant), the median over the used boots of the endpoint (each boot's p50 over
-- its 64 callers' calls) and of the latency's parts the same boots measured (sync_rcu.split=1):
-- the wait for the next grace period to start, the grace period, and the wake step after it
-- (each a per-boot percentile over the boot's calls), in ms; the mean of the middle two when n
-- is even. rcuo: the offloading kthreads the guest counted (0: callbacks invoked in softirq).
-- Pilots are left out (their boots enter no verdict).
--   bootbench query --db docs/data/seed002-load.sqlite --format md --file THIS
--   bootbench query --db docs/data/seed002-nocb.sqlite --format md --file THIS
with vals as (
  select v.hz, json_extract(v.params_json, '$."sync_rcu.cb_load"') as load,
         case when json_extract(v.params_json, '$.rcu_nocbs') is null then 'no' else 'all' end as nocbs,
         v.variant, m.name, m.value
  from v_samples v join metrics m on m.boot_id = v.boot_id
  where v.used = 1 and v.experiment not like '%-pilot'),
ranked as (
  select *, row_number() over (partition by hz, load, nocbs, variant, name order by value) as k,
         count(*) over (partition by hz, load, nocbs, variant, name) as n
  from vals),
med as (
  select hz, load, nocbs, variant, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by hz, load, nocbs, variant, name),
cell(hz, load, nocbs, variant, name, n, v) as (
  select hz, load, nocbs, variant, name, n,
         case name when 'sync_rcu_calls_per_s' then printf('%.0f', m)
                   when 'rcu_cb_load_files_per_s' then printf('%.0f', m)
                   when 'rcu_nocb_kthreads' then printf('%.0f', m)
                   when 'sync_rcu_us_p99' then printf('%.1f', m / 1000)
                   when 'sync_rcu_gp_us_p90' then printf('%.1f', m / 1000)
                   when 'sync_rcu_wake_step_us_p99' then printf('%.1f', m / 1000)
                   else printf('%.2f', m / 1000) end
  from med)
select hz as "HZ", load as "load", nocbs as "rcu_nocbs", variant,
       max(case when name = 'sync_rcu_us_p50' then n end) as "n",
       coalesce(max(case when name = 'sync_rcu_us_p50' then v end), '-') as "p50 (endpoint)",
       coalesce(max(case when name = 'sync_rcu_us_p99' then v end), '-') as "p99",
       coalesce(max(case when name = 'sync_rcu_wait_start_us_p50' then v end), '-') as "wait for GP p50",
       coalesce(max(case when name = 'sync_rcu_gp_us_p50' then v end), '-') as "GP p50",
       coalesce(max(case when name = 'sync_rcu_gp_us_p90' then v end), '-') as "GP p90",
       coalesce(max(case when name = 'sync_rcu_wake_step_us_p50' then v end), '-') as "wake step p50",
       coalesce(max(case when name = 'sync_rcu_wake_step_us_p99' then v end), '-') as "wake step p99",
       coalesce(max(case when name = 'sync_rcu_calls_per_s' then v end), '-') as "calls/s",
       coalesce(max(case when name = 'rcu_cb_load_files_per_s' then v end), '-') as "load files/s",
       coalesce(max(case when name = 'rcu_nocb_kthreads' then v end), '-') as "rcuo"
from cell
group by hz, load, nocbs, variant
order by hz, load, nocbs, case variant when 'stock' then 0 when 'wake-from-gp' then 1 else 2 end
