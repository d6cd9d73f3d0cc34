-- docs/results/srcu.md section 6, the pilot: one boot per kernel, 48 EFI-variable writes.
-- Empty cells: the boot ended before L2 or L1 reported the value (before-full timed out).
--   bootbench query --db docs/data/seed000-efivar-pilot.sqlite --format md --file THIS
with metric(boot_id, name, value) as (
  select boot_id, name, value from metrics)
select v.variant, v.outcome, printf('%.2f', v.foreign_load) as "foreign load",
       case when v.loaded then 'yes' else 'no' end as "loaded",
       coalesce((select printf('%.1f', value) from metric where boot_id = v.boot_id
        and name = 'efivar_storm_seconds'), '—') as "storm (s)",
       coalesce((select printf('%d', value) from metric where boot_id = v.boot_id
        and name = 'efivar_write_us_n'), '—') as "writes timed",
       coalesce((select printf('%.1f', value / 1e6) from metric where boot_id = v.boot_id
        and name = 'efivar_write_us_p50'), '—') as "write p50 (s)",
       coalesce((select printf('%.1f', value / 1e6) from metric where boot_id = v.boot_id
        and name = 'efivar_write_us_max'), '—') as "write max (s)",
       coalesce((select printf('%,d', value) from metric where boot_id = v.boot_id
        and name = 'srcu_expedited_calls'), '—') as "calls",
       coalesce((select printf('%,d', value) from metric where boot_id = v.boot_id
        and name = 'l1_srcu_readers_found'), '—') as "readers found",
       coalesce((select printf('%,d', value) from metric where boot_id = v.boot_id
        and name = 'l1_srcu_reader_checks'), '—') as "reader checks",
       coalesce((select printf('%.2f', value) from metric where boot_id = v.boot_id
        and name = 'l1_srcu_exp_blocked_seconds'), '—') as "blocked (s)",
       coalesce((select printf('%,d', value) from metric where boot_id = v.boot_id
        and name = 'l1_srcu_exp_timed_calls'), '—') as "calls timed"
from v_samples v order by v.variant desc
