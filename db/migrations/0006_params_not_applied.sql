-- bootbench schema 6: a boot whose requested kernel parameters did not all take.
-- Linux ignores an unknown `module.param` silently; the guest reads each one back and the host
-- stores what did not take here (NULL: every checked parameter took). Such a boot ran, but not
-- with the configuration it stands for: `used` leaves it out. The views are recreated as in
-- schema 4 with the new column and rule.
ALTER TABLE boots ADD COLUMN params_not_applied TEXT;

DROP VIEW v_histograms;
DROP VIEW v_samples;
DROP VIEW v_runs;

-- `used`: outcome ok, foreign load at most 0.25 and every checked parameter applied.
CREATE VIEW v_samples AS
SELECT b.id AS boot_id,
       e.name AS experiment,
       b.run_id,
       r.mode AS run_mode,
       b.cell_key,
       b.repeat_index,
       json_extract(b.params_json, '$.variant') AS variant,
       coalesce(json_extract(b.params_json, '$.hz'), bu.hz) AS hz,
       b.smp,
       b.memory_mb,
       b.arch,
       b.machine,
       b.firmware_name,
       b.accel,
       json_extract(b.params_json, '$."srcutree.srcu_max_nodelay_phase"')
           AS srcu_max_nodelay_phase,
       json_extract(b.params_json, '$."srcutree.srcu_max_nodelay"') AS srcu_max_nodelay,
       json_extract(b.params_json, '$."rcutree.rcu_normal_wake_from_gp"')
           AS rcu_normal_wake_from_gp,
       b.cmdline,
       b.params_json,
       b.outcome,
       b.outcome_reason,
       b.params_not_applied,
       b.concurrency,
       b.foreign_load,
       b.boot_seconds,
       b.guest_marker_seconds,
       b.wall_seconds,
       CASE WHEN b.outcome = 'ok' AND coalesce(b.foreign_load, 0) <= 0.25
                 AND b.params_not_applied IS NULL THEN 1 ELSE 0 END
           AS used,
       b.build_key,
       b.started_at
FROM boots b
JOIN runs r ON r.id = b.run_id
LEFT JOIN experiments e ON e.id = r.experiment_id
LEFT JOIN builds bu ON bu.key = b.build_key;

-- One row per stored histogram bucket, with its boot's grouping columns and `used` flag.
CREATE VIEW v_histograms AS
SELECT h.boot_id,
       s.experiment,
       s.run_id,
       s.variant,
       s.hz,
       s.cell_key,
       s.params_json,
       h.name,
       h.lo,
       h.hi,
       h.count,
       s.outcome,
       s.foreign_load,
       s.used
FROM histograms h
JOIN v_samples s ON s.boot_id = h.boot_id;

-- One row per run: what it was, how it ended and how many of its boots the report uses.
CREATE VIEW v_runs AS
SELECT r.id AS run_id,
       e.name AS experiment,
       r.mode,
       r.status,
       r.verdict,
       r.baseline_run_id,
       r.seed,
       h.hostname AS host,
       r.started_at,
       r.finished_at,
       (SELECT count(*) FROM boots b WHERE b.run_id = r.id) AS boots,
       (SELECT count(*) FROM boots b WHERE b.run_id = r.id AND b.outcome = 'ok') AS ok_boots,
       (SELECT count(*) FROM boots b WHERE b.run_id = r.id AND b.outcome = 'ok'
            AND coalesce(b.foreign_load, 0) <= 0.25 AND b.params_not_applied IS NULL)
           AS used_boots,
       r.command_line
FROM runs r
JOIN hosts h ON h.id = r.host_id
LEFT JOIN experiments e ON e.id = r.experiment_id;
