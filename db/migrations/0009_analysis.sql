-- bootbench schema 9: the declared analysis and precision-based repeats (issue 15, items 2 and
-- 5; docs/experiments.md#analysis, #repeats).
-- runs.analysis_json: the experiment's `analysis:` as the run was started with it (NULL: none),
-- so `report --view verdict` judges the run by the analysis declared before it, not by whatever
-- the file says today.
-- run_cells: why each cell of a `repeats: {until: ...}` run stopped booting, and after how many
-- repeats. Rewritten when a resumed run decides again.
ALTER TABLE runs ADD COLUMN analysis_json TEXT;

CREATE TABLE run_cells (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    cell_key    TEXT NOT NULL,
    repeats     INTEGER NOT NULL,
    stop_reason TEXT NOT NULL,
    PRIMARY KEY (run_id, cell_key)
);
