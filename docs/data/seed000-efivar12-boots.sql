-- docs/results/srcu.md section 6, the 12-write A/B per boot: the storm in seconds, the boot's
-- foreign load, and * when the used-sample rule left it out (loaded). One row per variant.
--   bootbench query --db docs/data/seed000-efivar.sqlite --format md --file THIS
select s.variant,
       max(case when s.repeat_index = 0 then cell end) as "round 0",
       max(case when s.repeat_index = 1 then cell end) as "round 1",
       max(case when s.repeat_index = 2 then cell end) as "round 2",
       max(case when s.repeat_index = 3 then cell end) as "round 3",
       max(case when s.repeat_index = 4 then cell end) as "round 4",
       max(case when s.repeat_index = 5 then cell end) as "round 5"
from (select v.*, printf('%.1f (%.2f)%s', m.value, v.foreign_load,
                         case when v.loaded then ' *' else '' end) as cell
      from v_samples v join metrics m on m.boot_id = v.boot_id
      where v.experiment = 'srcu-efivar-ab12' and m.name = 'efivar_storm_seconds') s
group by s.variant order by s.variant desc
