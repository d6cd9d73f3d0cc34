#!/usr/bin/env bash
# Real arm64 boots with -bios QEMU_EFI.fd: N samples stored with everything needed to redo them.
# (No "quiet": the banner and the other kernel events must reach the console.)
. "$(dirname "$0")/lib.sh"
# One warm-up boot first (--warmup): stored like the others, never used.
"$BOOTBENCH" boot --arch arm64 --bios QEMU_EFI.fd -n 2 --warmup 1 --json >"$work/out.json"
expect_eq "$(q "select count(*) from boots where outcome = 'ok'")" 3 "ok boots"
expect_eq "$(q "select count(*) from boots where boot_seconds > 1 and boot_seconds < 120")" 3 \
  "plausible boot times"
expect_eq "$(q "select group_concat(repeat_index) from (select repeat_index from boots order by id)")" \
  "-1,0,1" "the warm-up first"
expect_eq "$(q "select sum(used), sum(warmup) from v_samples")" "2|1" "the warm-up stored, not used"
summary_counts() {
  python3 -c 'import json,sys; d = json.load(sys.stdin)
print(d["time"]["n"], sum(s["warmup"] for s in d["samples"]), sep=",")' <"$1"
}
expect_eq "$(summary_counts "$work/out.json")" "2,1" "the summary's n leaves the warm-up out"
expect_eq "$(q "select count(distinct firmware_sha256) from boots where firmware_name = 'QEMU_EFI.fd'")" 1 "firmware hash"
expect_eq "$(q "select count(*) from boots where argv_json like '%\"-bios\"%' and accel = 'tcg'")" 3 "argv kept"
expect_eq "$(q "select count(*) from boot_events where kind = 'marker' and text = 'boot-done'")" 3 "marker events"
expect_eq "$(q "select count(*) from boot_events where kind = 'banner'")" 3 "banner events"
expect_eq "$(q "select status from runs")" done "run status"
# The stored console is the real one, gzip'd.
q "select writefile('$work/console.gz', console_gz) from boots limit 1" >/dev/null
zcat "$work/console.gz" | has_match "BOOTBENCH-MARKER boot-done" || fail "console log lacks the marker"
grep -q '"outcome": "ok"' "$work/out.json" || fail "JSON output lacks outcomes"
no_qemu_left
echo PASS
