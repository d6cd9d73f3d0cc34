-- docs/results/srcu.md section 0, the declared boot-time run (configs/srcu-boot.yaml) per boot:
-- L2's boot time in seconds, the boot's foreign load, and * when the used-sample rule left it
-- out (loaded). One row per variant, one column per round.
--   bootbench query --db docs/data/seed000-boot.sqlite --format md --file THIS
select s.variant,
       max(case when s.repeat_index = 0 then cell end) as "round 0",
       max(case when s.repeat_index = 1 then cell end) as "round 1",
       max(case when s.repeat_index = 2 then cell end) as "round 2",
       max(case when s.repeat_index = 3 then cell end) as "round 3",
       max(case when s.repeat_index = 4 then cell end) as "round 4",
       max(case when s.repeat_index = 5 then cell end) as "round 5",
       max(case when s.repeat_index = 6 then cell end) as "round 6",
       max(case when s.repeat_index = 7 then cell end) as "round 7",
       max(case when s.repeat_index = 8 then cell end) as "round 8",
       max(case when s.repeat_index = 9 then cell end) as "round 9"
from (select v.*, printf('%.1f (%.2f)%s', v.boot_seconds, v.foreign_load,
                         case when v.loaded then ' *' else '' end) as cell
      from v_samples v where v.experiment = 'srcu-boot') s
group by s.variant order by s.variant desc
