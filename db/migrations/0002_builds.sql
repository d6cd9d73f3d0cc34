-- bootbench schema 2: the kernel build cache. Artifacts live on disk (artifact_dir); this table
-- says what each key was built from, so `bootbench builds` and reports need not read the disk.
CREATE TABLE builds (
    key             TEXT PRIMARY KEY,
    arch            TEXT NOT NULL,
    source_identity TEXT NOT NULL,
    patches_json    TEXT NOT NULL,   -- [{"name":..., "sha256":...}] in application order
    base_config     TEXT NOT NULL,
    fragments_json  TEXT NOT NULL,
    hz              INTEGER,
    preempt         TEXT,
    config_sha256   TEXT NOT NULL,
    toolchain       TEXT NOT NULL,
    target          TEXT NOT NULL,
    artifact_dir    TEXT NOT NULL,
    image_sha256    TEXT NOT NULL,
    image_bytes     INTEGER NOT NULL,
    build_seconds   REAL NOT NULL,
    explain         TEXT NOT NULL,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_used_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
