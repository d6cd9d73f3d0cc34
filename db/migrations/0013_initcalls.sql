-- bootbench schema 13: where the kernel's own boot goes, initcall by initcall (issue 50). A boot
-- with initcall_debug on its command line (`trace: initcalls`, or the parameter given by hand)
-- has its ring buffer's initcall lines dumped by /init after the timing marker
-- (console/initcall_trace.h).
--   boots.initcall_trace: NULL, not traced; 'complete'; 'wrapped' (the ring buffer had lost the
--     boot's start); 'cut' (the dump did not reach its end); 'empty' (no initcall in the dump).
--     Reports attribute from complete traces only.
--   boots.kernel_init_seconds: the kernel's clock when it started /init, from the same dump.
--   boot_initcalls: one row per initcall that returned, in the order they returned; start on the
--     kernel's clock, duration as the kernel measured it.
ALTER TABLE boots ADD COLUMN initcall_trace TEXT
    CHECK (initcall_trace IN ('complete', 'wrapped', 'cut', 'empty'));
ALTER TABLE boots ADD COLUMN kernel_init_seconds REAL;
CREATE TABLE boot_initcalls (
    boot_id       INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    name          TEXT NOT NULL,
    module        TEXT NOT NULL DEFAULT '',
    start_seconds REAL NOT NULL,
    duration_us   INTEGER NOT NULL CHECK (duration_us >= 0),
    return_value  INTEGER NOT NULL,
    PRIMARY KEY (boot_id, seq)
) WITHOUT ROWID;
