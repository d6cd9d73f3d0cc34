-- docs/results/srcu.md section 0: every boot of the declared HZ 100/250/1000 run
-- (configs/srcu-boot-kvmhost.yaml): L2's boot time in s, the foreign load during it, and "*"
-- for a boot stored as loaded (left out of the verdict), one row per HZ and variant.
--   bootbench query --db docs/data/seed000-kvmhost.sqlite --format md --file THIS
select hz as "HZ", variant,
  group_concat(printf('%.1f (%.2f)%s', boot_seconds, foreign_load, case when used then '' else ' *' end),
               ' | ') as "boots in round order: s (foreign load)"
from (select * from v_samples where experiment = 'srcu-boot-kvmhost' order by repeat_index)
group by hz, variant
order by hz, case variant when 'stock' then 0 else 1 end
