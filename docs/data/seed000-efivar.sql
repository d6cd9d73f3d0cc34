-- Per-boot data of docs/results/srcu.md sections 6, 7 and 8: sqlite3 -header -csv DB < this file
select b.id as boot_id, s.experiment, b.run_id, b.repeat_index as round,
       json_extract(b.params_json, '$.hz') as hz,
       json_extract(b.params_json, '$.variant') as variant,
       json_extract(b.params_json, '$."srcutree.srcu_max_nodelay_phase"') as srcu_max_nodelay_phase,
       b.outcome, round(b.foreign_load, 3) as foreign_load, s.loaded,
       b.boot_seconds as l2_boot_seconds,
       (select value from metrics m where m.boot_id = b.id and m.name = 'efivar_storm_seconds') as efivar_storm_seconds,
       (select value from metrics m where m.boot_id = b.id and m.name = 'efivar_write_us_p50') as efivar_write_us_p50,
       (select value from metrics m where m.boot_id = b.id and m.name = 'srcu_expedited_calls') as srcu_expedited_calls,
       (select value from metrics m where m.boot_id = b.id and m.name = 'l1_srcu_exp_timed_calls') as l1_srcu_exp_timed_calls,
       (select value from metrics m where m.boot_id = b.id and m.name = 'l1_srcu_exp_blocked_seconds') as l1_srcu_exp_blocked_seconds,
       (select value from metrics m where m.boot_id = b.id and m.name = 'l1_srcu_readers_found') as l1_srcu_readers_found,
       (select value from metrics m where m.boot_id = b.id and m.name = 'l1_srcu_reader_checks') as l1_srcu_reader_checks,
       (select value from metrics m where m.boot_id = b.id and m.name = 'l1_srcu_gp_work_delay_jiffies') as l1_srcu_gp_work_delay_jiffies,
       (select value from metrics m where m.boot_id = b.id and m.name = 'l1_srcu_cb_delayed') as l1_srcu_cb_delayed,
       (select value from metrics m where m.boot_id = b.id and m.name = 'l2_run_seconds') as l2_run_seconds
from boots b join v_samples s on s.boot_id = b.id order by b.id
