-- docs/results/srcu.md section 7: per phase-table row, the medians over the used boots of what
-- L1 measured in the same boots as the storm (the mean of the middle two when n is even).
--   bootbench query --db docs/data/seed000-phase-table.sqlite --format md --file THIS
with vals as (
  select v.variant || ' ' || v.srcu_max_nodelay_phase as cell_row, v.variant,
         v.srcu_max_nodelay_phase + 0 as phase, m.name, m.value
  from v_samples v join metrics m on m.boot_id = v.boot_id where v.used = 1),
ranked as (
  select *, row_number() over (partition by cell_row, name order by value) as k,
         count(*) over (partition by cell_row, name) as n
  from vals),
med as (
  select cell_row, variant, phase, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by cell_row, name)
select cell_row as "row",
       max(case when name = 'efivar_storm_seconds' then n end) as "n",
       max(case when name = 'l1_srcu_gp_work_delay_jiffies' then printf('%g', m) end)
         as "GP work delayed (jiffies)",
       max(case when name = 'l1_srcu_exp_blocked_seconds' then printf('%.2f', m) end)
         as "blocked in the calls (s)",
       max(case when name = 'l1_srcu_readers_found' then printf('%,d', cast(round(m) as integer)) end)
         as "readers found",
       max(case when name = 'l1_srcu_reader_checks' then printf('%,d', cast(round(m) as integer)) end)
         as "reader checks",
       max(case when name = 'srcu_expedited_calls' then printf('%,d', cast(round(m) as integer)) end)
         as "calls"
from med group by cell_row order by variant desc, phase
