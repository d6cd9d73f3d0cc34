-- bootbench schema 8: the quiet-host gate (docs/experiments.md#quiet).
-- Before every sample the runner measures the foreign CPU load and waits while it is above
-- quiet.max_load. Per boot: how long it waited (NULL: not gated, e.g. --no-quiet-wait or a
-- libvirt host), the foreign load when it started, and whether it counts as loaded: it ran
-- after a wait that timed out, or its foreign load during the boot exceeded the threshold in
-- force. Boots stored before this schema have loaded NULL; the views read that as the old rule,
-- foreign load above 0.25. The views are recreated as in schema 6 with the new columns and
-- rule.
ALTER TABLE boots ADD COLUMN quiet_wait_seconds REAL;
ALTER TABLE boots ADD COLUMN load_before REAL;
ALTER TABLE boots ADD COLUMN loaded INTEGER CHECK (loaded IN (0, 1));

DROP VIEW v_histograms;
DROP VIEW v_samples;
DROP VIEW v_runs;

-- `loaded` and `used` are defined here only; v_histograms and v_runs take them from this view.
-- `used`: outcome ok, not loaded and every checked parameter applied.
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
       b.quiet_wait_seconds,
       b.load_before,
       b.loaded_rule AS loaded,
       b.boot_seconds,
       b.guest_marker_seconds,
       b.wall_seconds,
       CASE WHEN b.outcome = 'ok' AND b.loaded_rule = 0 AND b.params_not_applied IS NULL
            THEN 1 ELSE 0 END
           AS used,
       b.build_key,
       b.started_at
FROM (SELECT boots.*,
             coalesce(boots.loaded, coalesce(boots.foreign_load, 0) > 0.25) AS loaded_rule
      FROM boots) b
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
       s.loaded,
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
       (SELECT count(*) FROM v_samples s WHERE s.run_id = r.id AND s.used = 1) AS used_boots,
       (SELECT count(*) FROM v_samples s WHERE s.run_id = r.id AND s.loaded = 1)
           AS loaded_boots,
       (SELECT sum(b.quiet_wait_seconds) FROM boots b WHERE b.run_id = r.id)
           AS quiet_wait_seconds,
       r.command_line
FROM runs r
JOIN hosts h ON h.id = r.host_id
LEFT JOIN experiments e ON e.id = r.experiment_id;
