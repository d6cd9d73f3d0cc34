-- bootbench schema 3: a nightly run's verdict against its baseline, so the next nightly compares
-- with the last *good* one ('ok'), never with a night that regressed.
ALTER TABLE runs ADD COLUMN verdict TEXT CHECK (verdict IN ('ok', 'regression'));
ALTER TABLE runs ADD COLUMN baseline_run_id INTEGER REFERENCES runs(id);
