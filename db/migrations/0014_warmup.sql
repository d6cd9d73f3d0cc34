-- bootbench schema 14: warm-up boots (`warmup: N`, `--warmup N`; docs/experiments.md#warmup).
-- A warm-up boot is booted before a cell's measured repeats and stored like any other, with a
-- negative repeat_index (-1, -2, … : the attempts before repeat 0), so a resume and the one-sample-
-- per-repeat index keep working unchanged, and a file of schema 10–13, which has none, reads the
-- same through the selection every report makes (`repeat_index >= 0`). Never used: `used` is 0
-- for it, and `warmup` says why. v_histograms and v_runs read `used` from this view.
DROP VIEW v_samples;

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
                 AND b.repeat_index >= 0
            THEN 1 ELSE 0 END
           AS used,
       b.build_key,
       b.started_at,
       CASE WHEN b.repeat_index < 0 THEN 1 ELSE 0 END AS warmup
FROM (SELECT boots.*,
             coalesce(boots.loaded, coalesce(boots.foreign_load, 0) > 0.25) AS loaded_rule
      FROM boots) b
JOIN runs r ON r.id = b.run_id
LEFT JOIN experiments e ON e.id = r.experiment_id
LEFT JOIN builds bu ON bu.key = b.build_key;
