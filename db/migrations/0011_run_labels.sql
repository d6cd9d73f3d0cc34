-- bootbench schema 11: a user's labels on a run (issue 33 item 10, `bootbench runs --tag/--note`).
-- Tags name runs for filtering ("baseline", "quiet-host"); a note says what the stored settings
-- cannot ("rebuilt after the ccache wipe"). Both are the user's, never read by an analysis.
-- NULL note: none.
CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    tag TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 64),
    PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
ALTER TABLE runs ADD COLUMN note TEXT;
