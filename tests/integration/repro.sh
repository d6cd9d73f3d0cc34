#!/usr/bin/env bash
# bootbench repro end to end: a stored boot of a patched kernel is replayed from its script,
# a tampered input is refused by name, and the kernel is rebuilt from Debian's source with the
# recorded patch and .config — bit-identical (bootbench builds with a fixed timestamp, user and
# host, and the script reuses bootbench's ccache, so this costs a copy of the source and a link).
# The kernel is CI's arm64 one with the srcu `before` patch, which build_and_boot also builds.
. "$(dirname "$0")/lib.sh"

key_of() { python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])'; }
mapfile -t fragments < <(smoke_fragment_args)
patch=$(dirname "$0")/../../kernels/patches/srcu/before/0001-srcu-recreate-640a7d37-expedited-delays.patch
key=$("$BOOTBENCH" build --arch arm64 --hz 250 "${fragments[@]}" --patch "$patch" --json | key_of)
"$BOOTBENCH" boot --build "$key" --bios QEMU_EFI.fd --machine virt,acpi=off -n 1 --quiet
id=$(q "select id from boots where outcome = 'ok'")
expect_eq "$(q "select start_marker || '|' || timing_marker from boots")" "|boot-done" \
  "the markers a plain boot was timed between"

# The script on its own: valid bash, naming the boot and every input's hash.
"$BOOTBENCH" repro "$id" -o "$work/repro.sh"
bash -n "$work/repro.sh" || fail "the script is not valid bash"
grep -q "^# bootbench repro of boot $id " "$work/repro.sh" || fail "the script does not name the boot"
for column in kernel_sha256 initrd_sha256 firmware_sha256; do
  grep -q "$(q "select $column from boots where id = $id")" "$work/repro.sh" ||
    fail "the script lacks the boot's $column"
done
bash "$work/repro.sh" --help | has_match -- "--rebuild-kernel" || fail "the script's --help"

# A replay prints the new time beside the stored one.
"$BOOTBENCH" repro "$id" --run >"$work/replay.out"
grep -Eq '^marker boot-done after [0-9.]+ s; stored [0-9.]+ s \([0-9.]+x\)$' "$work/replay.out" ||
  fail "the replay printed no time: $(tail -n 5 "$work/replay.out")"

# Another initramfs than the one booted is refused, by name, before any boot.
initrd=$(q "select initrd_path from boots where id = $id")
cp "$initrd" "$work/other.cpio.gz" && printf x >>"$work/other.cpio.gz"
status=0
REPRO_INITRD=$work/other.cpio.gz bash "$work/repro.sh" 2>"$work/tampered.err" || status=$?
expect_eq "$status" 3 "replay with a changed initramfs"
grep -q "input initramfs: $work/other.cpio.gz has sha256 [0-9a-f]\{64\}, the boot used $(q "select initrd_sha256 from boots where id = $id")" \
  "$work/tampered.err" || fail "the changed initramfs's error: $(cat "$work/tampered.err")"

# The kernel again from source: toolchain, package, patch and .config checked, then built.
start=$(date +%s)
"$BOOTBENCH" repro "$id" --run --rebuild-kernel >"$work/rebuild.out" 2>&1 ||
  fail "the rebuild failed: $(tail -n 20 "$work/rebuild.out")"
echo "rebuild and replay: $(( $(date +%s) - start )) s"
grep -q "patch 1/1 0001-srcu-recreate-640a7d37-expedited-delays.patch" "$work/repro.sh" ||
  fail "the script does not carry the patch"
grep -q "repro: the rebuilt image is bit-identical to the one the boot used" "$work/rebuild.out" ||
  fail "the rebuilt image differs: $(grep 'rebuilt image' "$work/rebuild.out")"
grep -Eq '^marker boot-done after [0-9.]+ s' "$work/rebuild.out" || fail "no replay after the rebuild"

# Usage errors exit 2 and say what is wrong.
status=0
"$BOOTBENCH" repro 999999 2>"$work/missing.err" || status=$?
expect_eq "$status" 2 "repro of a boot that does not exist"
grep -q "no boot 999999 in" "$work/missing.err" || fail "missing boot's error: $(cat "$work/missing.err")"
status=0
"$BOOTBENCH" repro "$id" --check-only 2>/dev/null || status=$?
expect_eq "$status" 2 "--check-only without --run --rebuild-kernel"
no_qemu_left
echo PASS
