-- docs/results/rwsem.md section 0, the corrected port's declared run (rwsem-seed-v3): per cell (rwsem.opt_rspin), the median
-- over the used boots of the endpoint (each boot's geomean over the 15 profiles of launch / calibration), of the raw
-- launch geomean and the calibration it divides by, and of what the same boots measured of the lock: mmap_lock
-- read-side wait and acquisitions (the mmap_lock tracepoints, app_launch.trace_mmap_lock=1, summed over the boot's
-- launches) and the lock-event counters, among them the four the corrected series adds (one per deviation from the
-- seed's v2, and what the first port's handoff break would have stopped); the mean of the middle two when n is even.
--   bootbench query --db docs/data/seed003-v3.sqlite --format md --file THIS
with used as (
  select v.boot_id, v.variant, json_extract(v.params_json, '$."rwsem.opt_rspin"') as rspin
  from v_samples v where v.used = 1 and v.experiment = 'rwsem-seed-v3'),
per_boot as (
  select u.variant, u.rspin, 'endpoint' as name, exp(avg(ln(m.value))) as value
  from used u join metrics m on m.boot_id = u.boot_id
  where substr(m.name, 1, 16) = 'launch_relative.' group by u.boot_id
  union all
  select u.variant, u.rspin, 'raw', exp(avg(ln(m.value)))
  from used u join metrics m on m.boot_id = u.boot_id
  where substr(m.name, 1, 7) = 'launch.' group by u.boot_id
  union all
  select u.variant, u.rspin, m.name, m.value
  from used u join metrics m on m.boot_id = u.boot_id
  where m.name in ('calibration_ms', 'mmap_lock_read_wait_us', 'mmap_lock_read_locks',
                   'mmap_lock_read_slow', 'mmap_lock_read_wait_max_us', 'mmap_lock_trace_lost',
                   'lockevent.rwsem_opt_rlock', 'lockevent.rwsem_sleep_reader',
                   'lockevent.rwsem_opt_fail', 'lockevent.rwsem_wlock', 'lockevent.rwsem_wlock_fail',
                   'lockevent.rwsem_opt_norspin', 'lockevent.rwsem_opt_norspin_unsaved',
                   'lockevent.rwsem_opt_rspin_handoff', 'lockevent.rwsem_opt_rlock_after_handoff',
                   'lockevent.rwsem_opt_rwake')),
ranked as (
  select *, row_number() over (partition by variant, rspin, name order by value) as k,
         count(*) over (partition by variant, rspin, name) as n
  from per_boot),
med as (
  select variant, rspin, name, avg(value) as m, max(n) as n
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by variant, rspin, name),
rows(i, label, name, scale, fmt) as (values
  (1, 'used boots (n)', 'endpoint', 1, 'n'),
  (2, 'launch / calibration, geomean: the endpoint', 'endpoint', 1, '%.3f'),
  (3, 'launch time, geomean (ms)', 'raw', 1, '%.1f'),
  (4, 'calibration (ms)', 'calibration_ms', 1, '%.1f'),
  (5, 'mmap_lock read wait, all launches (ms)', 'mmap_lock_read_wait_us', 1000, '%.0f'),
  (6, 'mmap_lock read acquisitions', 'mmap_lock_read_locks', 1, '%.0f'),
  (7, '… of which waited > 100 µs', 'mmap_lock_read_slow', 1, '%.0f'),
  (8, 'longest read wait (ms)', 'mmap_lock_read_wait_max_us', 1000, '%.1f'),
  (9, 'trace events lost', 'mmap_lock_trace_lost', 1, '%.0f'),
  (10, 'read locks taken by spinning (rwsem_opt_rlock)', 'lockevent.rwsem_opt_rlock', 1, '%.0f'),
  (11, 'readers that slept (rwsem_sleep_reader)', 'lockevent.rwsem_sleep_reader', 1, '%.0f'),
  (12, 'failed spins, readers and writers (rwsem_opt_fail)', 'lockevent.rwsem_opt_fail', 1, '%.0f'),
  (13, 'write locks taken in the slowpath (rwsem_wlock)', 'lockevent.rwsem_wlock', 1, '%.0f'),
  (14, 'write locks given up (rwsem_wlock_fail)', 'lockevent.rwsem_wlock_fail', 1, '%.0f'),
  (15, 'reader spinning disabled on an rwsem (rwsem_opt_norspin)', 'lockevent.rwsem_opt_norspin', 1, '%.0f'),
  (16, 'readers queued before last_rowner was saved, bit set (rwsem_opt_norspin_unsaved)', 'lockevent.rwsem_opt_norspin_unsaved', 1, '%.0f'),
  (17, 'reader spins that saw a pending handoff (rwsem_opt_rspin_handoff)', 'lockevent.rwsem_opt_rspin_handoff', 1, '%.0f'),
  (18, '… of which took the lock (rwsem_opt_rlock_after_handoff)', 'lockevent.rwsem_opt_rlock_after_handoff', 1, '%.0f'),
  (19, 'wake-ups by a reader giving back its bias (rwsem_opt_rwake)', 'lockevent.rwsem_opt_rwake', 1, '%.0f')),
cells as (
  select r.i, r.label, x.variant, x.rspin,
         case r.fmt when 'n' then printf('%d', x.n) else printf(r.fmt, x.m / r.scale) end as cell
  from rows r join med x on x.name = r.name)
select label as "per boot, median over boots",
       coalesce(max(case when variant = 'seed-v3' and rspin = 0 then cell end), '-') as "6.12 faults: opt_rspin 0",
       coalesce(max(case when variant = 'seed-v3' and rspin = 1 then cell end), '-') as "6.12 faults: opt_rspin 1"
from cells group by i order by i
