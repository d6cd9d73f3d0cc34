-- docs/results/srcu.md section 8: every boot of the srcu-host table so far: the storm, what L1
-- measured in the same boot, the foreign load, and whether the used-sample rule kept it.
--   bootbench query --db docs/data/seed000-host.sqlite --format md --file THIS
select v.hz, v.variant, v.repeat_index as round, v.outcome,
       printf('%.2f', (select value from metrics where boot_id = v.boot_id
                       and name = 'efivar_storm_seconds')) as "storm (s)",
       printf('%.2f', (select value from metrics where boot_id = v.boot_id
                       and name = 'l1_srcu_exp_blocked_seconds')) as "blocked (s)",
       printf('%g', (select value from metrics where boot_id = v.boot_id
                     and name = 'l1_srcu_gp_work_delay_jiffies')) as "GP delay (jiffies)",
       printf('%,d', (select value from metrics where boot_id = v.boot_id
                      and name = 'l1_srcu_readers_found')) as "readers found",
       printf('%,d', (select value from metrics where boot_id = v.boot_id
                      and name = 'srcu_expedited_calls')) as "calls",
       printf('%.2f', v.foreign_load) as "foreign load",
       case when v.used then 'yes' else 'no' end as used
from v_samples v where v.experiment = 'srcu-host'
order by v.hz, v.variant desc, v.repeat_index
