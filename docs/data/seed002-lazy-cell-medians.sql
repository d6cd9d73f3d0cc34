-- docs/results/rcu.md section 6: for each run and cell of db/seed002-lazy.sqlite (laziness,
-- backlog cap rcutree.qhimark, callback load threads, variant), the median over the used boots of
-- the endpoint (each boot's p50 over its callers' calls) and of the latency's parts the same
-- boots measured (sync_rcu.split=1): the wait for the next grace period to start, the grace
-- period, and the wake step after it (each a per-boot percentile over the boot's calls), in ms;
-- the mean of the middle two when n is even. Runs 1 and 2 are the pilots (2 boots per cell; they
-- enter no verdict), run 3 the declared run. lazy: rcutree.enable_rcu_lazy as the boot asked for it
-- (every boot read it back as asked: boots.params_not_applied is empty).
--   bootbench query --db docs/data/seed002-lazy.sqlite --format md --file THIS
with vals as (
  select v.run_id, json_extract(v.params_json, '$."rcutree.enable_rcu_lazy"') as lazy,
         coalesce(json_extract(v.params_json, '$."rcutree.qhimark"'), 10000) as qhimark,
         json_extract(v.params_json, '$."sync_rcu.cb_load"') as load,
         v.variant, m.name, m.value
  from v_samples v join metrics m on m.boot_id = v.boot_id
  where v.used = 1),
ranked as (
  select *, row_number() over (partition by run_id, lazy, qhimark, load, variant, name
                               order by value) as k,
         count(*) over (partition by run_id, lazy, qhimark, load, variant, name) as n
  from vals),
med as (
  select run_id, lazy, qhimark, load, variant, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2)
  group by run_id, lazy, qhimark, load, variant, name),
cell(run_id, lazy, qhimark, load, variant, name, n, v) as (
  select run_id, lazy, qhimark, load, variant, name, n,
         case when name = 'sync_rcu_calls_per_s' then printf('%.1f', m)
              when name = 'rcu_cb_load_files_per_s' then printf('%.0f', m)
              when name like '%_p99' or name like '%_p90' then printf('%.1f', m / 1000)
              else printf('%.2f', m / 1000) end
  from med)
select run_id as "run", lazy as "lazy",
       qhimark as "qhimark", load as "load", variant,
       max(case when name = 'sync_rcu_us_p50' then n end) as "n",
       coalesce(max(case when name = 'sync_rcu_us_p50' then v end), '-') as "p50 (endpoint)",
       coalesce(max(case when name = 'sync_rcu_us_p99' then v end), '-') as "p99",
       coalesce(max(case when name = 'sync_rcu_wait_start_us_p50' then v end), '-') as "wait for GP p50",
       coalesce(max(case when name = 'sync_rcu_gp_us_p50' then v end), '-') as "GP p50",
       coalesce(max(case when name = 'sync_rcu_wake_step_us_p50' then v end), '-') as "wake step p50",
       coalesce(max(case when name = 'sync_rcu_wake_step_us_p90' then v end), '-') as "wake step p90",
       coalesce(max(case when name = 'sync_rcu_calls_per_s' then v end), '-') as "calls/s",
       coalesce(max(case when name = 'rcu_cb_load_files_per_s' then v end), '-') as "load files/s"
from cell
group by run_id, lazy, qhimark, load, variant
order by run_id, lazy, qhimark, load, case variant when 'stock' then 0 else 1 end
