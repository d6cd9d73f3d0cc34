-- bootbench schema 10: what each boot's time was measured between (issue 19, `bootbench repro`).
-- boot_seconds is the host time from qemu's spawn, or from the line `BOOTBENCH-MARKER <start>`
-- when a start marker is set (nested boots: L2's start), to the line `BOOTBENCH-MARKER <timing>`.
-- The names come from the experiment or `boot --marker`, so a replay must know them.
-- NULL timing_marker: recorded before schema 10. start_marker '' : timed from spawn.
ALTER TABLE boots ADD COLUMN timing_marker TEXT;
ALTER TABLE boots ADD COLUMN start_marker TEXT;
