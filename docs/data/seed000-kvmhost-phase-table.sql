-- docs/results/srcu.md section 0d: seed 000's phase table on boot time (configs/
-- srcu-boot-kvmhost-phase-table.yaml). One row per cell: the seed's boot time for that phase
-- count (quoted from the seed, not measured here), the used boots, the median over them of L2's
-- boot time, of L1's time blocked per synchronize_srcu_expedited() call and of the delayed
-- callback runs, and every boot in round order (s, foreign load; * = loaded, left out).
-- Medians are the mean of the middle two when n is even.
--   bootbench query --db docs/data/seed000-kvmhost-phase-table.sqlite --format md --file THIS
with boots as (
  select v.*, v.variant || ' ' || v.srcu_max_nodelay_phase as cell
  from v_samples v where v.experiment = 'srcu-boot-kvmhost-phase-table'),
vals as (
  select cell, 'boot' as name, boot_seconds as value from boots where used = 1
  union all
  select b.cell, 'per_call_ms', 1000 * k.value / c.value
  from boots b join metrics k on k.boot_id = b.boot_id and k.name = 'l1_srcu_exp_blocked_seconds'
  join metrics c on c.boot_id = b.boot_id and c.name = 'srcu_expedited_calls'
  where b.used = 1
  union all
  select b.cell, 'delayed', d.value
  from boots b join metrics d on d.boot_id = b.boot_id and d.name = 'l1_srcu_cb_delayed'
  where b.used = 1),
ranked as (
  select *, row_number() over (partition by cell, name order by value) as k,
         count(*) over (partition by cell, name) as n
  from vals),
med as (
  select cell, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by cell, name),
seed(phase, seconds) as (values
  (100, 30.053), (150, 25.151), (200, 20.704), (250, 15.748), (500, 11.401), (1000, 11.443),
  (10000, 11.258), (1000000, 11.154)),
cells as (
  select distinct variant, srcu_max_nodelay_phase as phase, cell from boots)
select c.variant as "L1", c.phase as "phase count",
  case when c.variant = 'table' then printf('%.1f', s.seconds) else '—' end as "seed (s)",
  (select n from med where cell = c.cell and name = 'boot') as "n",
  (select printf('%.1f', m) from med where cell = c.cell and name = 'boot') as "L2 boot (s), median",
  (select printf('%.2f', m) from med where cell = c.cell and name = 'per_call_ms')
    as "blocked per call (ms)",
  (select printf('%d', m) from med where cell = c.cell and name = 'delayed')
    as "delayed callback runs",
  (select group_concat(txt, ' | ') from (
     select case when boot_seconds is null then 'failed'
                 else printf('%.1f (%.2f)%s', boot_seconds, foreign_load,
                             case when loaded then ' *' else '' end) end as txt
     from boots b where b.cell = c.cell order by b.repeat_index)) as "boots in round order"
from cells c left join seed s on s.phase = c.phase
order by c.variant desc, c.phase + 0
