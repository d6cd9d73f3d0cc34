-- bootbench schema 1: hosts, experiments, runs, boots and what each boot produced.
-- Every boot row keeps what is needed to redo it: exact argv, cmdline, kernel/initrd/firmware
-- hashes, accelerator and why, the host and the tool version.

CREATE TABLE hosts (
    id             INTEGER PRIMARY KEY,
    fingerprint    TEXT NOT NULL UNIQUE,
    hostname       TEXT NOT NULL,
    kernel_release TEXT NOT NULL,
    cpu_model      TEXT NOT NULL,
    cpus           INTEGER NOT NULL,
    memory_bytes   INTEGER NOT NULL,
    first_seen     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE experiments (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    yaml        TEXT NOT NULL,
    yaml_sha256 TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (name, yaml_sha256)
);

CREATE TABLE runs (
    id            INTEGER PRIMARY KEY,
    experiment_id INTEGER REFERENCES experiments(id),
    host_id       INTEGER NOT NULL REFERENCES hosts(id),
    mode          TEXT NOT NULL CHECK (mode IN ('boot', 'adhoc', 'nightly')),
    seed          INTEGER,
    status        TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
    command_line  TEXT NOT NULL,
    tool_version  TEXT NOT NULL,
    started_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at   TEXT
);

CREATE TABLE boots (
    id                   INTEGER PRIMARY KEY,
    run_id               INTEGER NOT NULL REFERENCES runs(id),
    cell_key             TEXT NOT NULL DEFAULT '',
    params_json          TEXT NOT NULL DEFAULT '{}',
    repeat_index         INTEGER NOT NULL,
    arch                 TEXT NOT NULL CHECK (arch IN ('arm64', 'x86_64')),
    machine              TEXT NOT NULL,
    smp                  INTEGER NOT NULL,
    memory_mb            INTEGER NOT NULL,
    kernel_path          TEXT NOT NULL,
    kernel_sha256        TEXT NOT NULL,
    build_key            TEXT,
    initrd_path          TEXT,
    initrd_sha256        TEXT,
    firmware_name        TEXT,
    firmware_sha256      TEXT,
    cmdline              TEXT NOT NULL,
    argv_json            TEXT NOT NULL,
    accel                TEXT NOT NULL CHECK (accel IN ('tcg', 'kvm')),
    accel_reason         TEXT NOT NULL,
    concurrency          INTEGER NOT NULL DEFAULT 1,
    foreign_load         REAL,
    outcome              TEXT NOT NULL
        CHECK (outcome IN ('ok', 'timeout', 'silent', 'panic', 'crash', 'infra-error')),
    outcome_reason       TEXT NOT NULL,
    boot_seconds         REAL,  -- host CLOCK_MONOTONIC, spawn to the timing marker
    guest_marker_seconds REAL,  -- guest uptime printed with the marker
    first_byte_seconds   REAL,
    banner_seconds       REAL,
    run_init_seconds     REAL,
    wall_seconds         REAL NOT NULL,
    exit_status          INTEGER,
    exit_signal          INTEGER,
    console_bytes        INTEGER NOT NULL,
    console_tail         TEXT NOT NULL,
    console_gz           BLOB,  -- the whole filtered console, gzip (zcat-able)
    started_at           TEXT NOT NULL
);
CREATE INDEX boots_by_run ON boots (run_id);
CREATE INDEX boots_by_cell ON boots (run_id, cell_key);

CREATE TABLE boot_events (
    id            INTEGER PRIMARY KEY,
    boot_id       INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
    host_seconds  REAL NOT NULL,
    guest_seconds REAL,
    kind          TEXT NOT NULL,
    text          TEXT NOT NULL
);
CREATE INDEX boot_events_by_boot ON boot_events (boot_id);

CREATE TABLE metrics (
    id           INTEGER PRIMARY KEY,
    boot_id      INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    value        REAL NOT NULL,
    unit         TEXT NOT NULL,
    host_seconds REAL
);
CREATE INDEX metrics_by_boot ON metrics (boot_id);
CREATE INDEX metrics_by_name ON metrics (name);

CREATE TABLE histograms (
    id      INTEGER PRIMARY KEY,
    boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    lo      REAL NOT NULL,
    hi      REAL NOT NULL,
    count   INTEGER NOT NULL
);
CREATE INDEX histograms_by_boot ON histograms (boot_id);

-- accel: auto probes once per host, guest arch and qemu version; the verdict is reused.
CREATE TABLE accel_probes (
    id           INTEGER PRIMARY KEY,
    host_id      INTEGER NOT NULL REFERENCES hosts(id),
    arch         TEXT NOT NULL,
    qemu_version TEXT NOT NULL,
    kvm_works    INTEGER NOT NULL,
    reason       TEXT NOT NULL,
    seconds      REAL NOT NULL,
    probed_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Documented views for sqlite3 and pandas users (docs/database.md).
CREATE VIEW v_boots AS
SELECT b.id AS boot_id, r.id AS run_id, e.name AS experiment, h.hostname AS host,
       b.started_at, b.arch, b.machine, b.smp, b.memory_mb, b.accel, b.firmware_name,
       b.cmdline, b.params_json, b.repeat_index, b.concurrency, b.foreign_load,
       b.outcome, b.outcome_reason, b.boot_seconds, b.guest_marker_seconds,
       b.first_byte_seconds, b.banner_seconds, b.run_init_seconds, b.wall_seconds,
       b.kernel_sha256, b.build_key, b.firmware_sha256
FROM boots b
JOIN runs r ON r.id = b.run_id
JOIN hosts h ON h.id = r.host_id
LEFT JOIN experiments e ON e.id = r.experiment_id;

CREATE VIEW v_metrics AS
SELECT m.boot_id, b.run_id, b.params_json, b.outcome, m.name, m.value, m.unit
FROM metrics m JOIN boots b ON b.id = m.boot_id;
