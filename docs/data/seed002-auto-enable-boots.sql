-- docs/results/rcu.md section 3, per boot: p50 / p99 / max of the 64 callers' synchronize_rcu()
-- calls in ms, and the calls per second over all threads. One row per round.
--   bootbench query --db docs/data/seed002-auto-enable.sqlite --format md --file THIS
with boot as (
  select v.repeat_index, v.variant,
         printf('%.1f / %s / %s; %s',
                (select value from metrics where boot_id = v.boot_id and name = 'sync_rcu_us_p50') / 1000,
                (select printf('%,d', cast(round(value / 1000) as int)) from metrics
                 where boot_id = v.boot_id and name = 'sync_rcu_us_p99'),
                (select printf('%,d', cast(round(value / 1000) as int)) from metrics
                 where boot_id = v.boot_id and name = 'sync_rcu_us_max'),
                (select cast(round(value) as int) from metrics
                 where boot_id = v.boot_id and name = 'sync_rcu_calls_per_s')) as cell
  from v_samples v where v.experiment = 'rcu-auto-enable-p99')
select repeat_index as round,
       max(case when variant = 'stock' then cell end) as stock,
       max(case when variant = 'wake-from-gp' then cell end) as "wake-from-gp",
       max(case when variant = 'auto-enable' then cell end) as "auto-enable"
from boot group by repeat_index order by repeat_index
