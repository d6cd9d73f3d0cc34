-- docs/results/srcu.md section 7, "Every boot": the storm of each boot in seconds, its foreign
-- load, and * when the used-sample rule left it out (loaded). One row per phase-table cell.
--   bootbench query --db docs/data/seed000-phase-table.sqlite --format md --file THIS
select s.variant || ' ' || s.srcu_max_nodelay_phase as "row",
       max(case when s.repeat_index = 0 then cell end) as "round 0",
       max(case when s.repeat_index = 1 then cell end) as "round 1",
       max(case when s.repeat_index = 2 then cell end) as "round 2",
       max(case when s.repeat_index = 3 then cell end) as "round 3",
       max(case when s.repeat_index = 4 then cell end) as "round 4",
       max(case when s.repeat_index = 5 then cell end) as "round 5"
from (select v.*, printf('%.2f (%.2f)%s', m.value, v.foreign_load,
                         case when v.loaded then ' *' else '' end) as cell
      from v_samples v join metrics m on m.boot_id = v.boot_id
      where m.name = 'efivar_storm_seconds') s
group by s.variant, s.srcu_max_nodelay_phase
order by s.variant desc, s.srcu_max_nodelay_phase + 0
