#!/usr/bin/env bash
# Real arm64 boots with -bios QEMU_EFI.fd: N samples stored with everything needed to redo them.
# (No "quiet": the banner and the other kernel events must reach the console.)
. "$(dirname "$0")/lib.sh"
"$BOOTBENCH" boot --arch arm64 --bios QEMU_EFI.fd -n 2 --json >"$work/out.json"
expect_eq "$(q "select count(*) from boots where outcome = 'ok'")" 2 "ok boots"
expect_eq "$(q "select count(*) from boots where boot_seconds > 1 and boot_seconds < 120")" 2 \
  "plausible boot times"
expect_eq "$(q "select count(distinct firmware_sha256) from boots where firmware_name = 'QEMU_EFI.fd'")" 1 "firmware hash"
expect_eq "$(q "select count(*) from boots where argv_json like '%\"-bios\"%' and accel = 'tcg'")" 2 "argv kept"
expect_eq "$(q "select count(*) from boot_events where kind = 'marker' and text = 'boot-done'")" 2 "marker events"
expect_eq "$(q "select count(*) from boot_events where kind = 'banner'")" 2 "banner events"
expect_eq "$(q "select status from runs")" done "run status"
# The stored console is the real one, gzip'd.
q "select writefile('$work/console.gz', console_gz) from boots limit 1" >/dev/null
zcat "$work/console.gz" | has_match "BOOTBENCH-MARKER boot-done" || fail "console log lacks the marker"
grep -q '"outcome": "ok"' "$work/out.json" || fail "JSON output lacks outcomes"
no_qemu_left
echo PASS
