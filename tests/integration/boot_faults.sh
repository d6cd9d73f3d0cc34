#!/usr/bin/env bash
# Guests that go wrong are recorded as such: a hang after the marker, a panic, a missing kernel,
# a file that is no kernel for the arch, missing firmware, a database newer than the binary.
. "$(dirname "$0")/lib.sh"

printf '#!/bin/sh\nsleep 100000\n' >"$work/hang.sh"
set +e
"$BOOTBENCH" boot --arch arm64 --machine virt --workload "$work/hang.sh" \
  --silence 20 --timeout 180 -n 1 >/dev/null 2>"$work/err"
status=$?
set -e
expect_eq "$status" 1 "exit status of a failed boot"
expect_eq "$(q "select outcome from boots order by id desc limit 1")" silent "hang outcome"
expect_eq "$(q "select boot_seconds is not null from boots order by id desc limit 1")" 1 \
  "boot time kept for a hang after the marker"
q "select outcome_reason from boots order by id desc limit 1" | has_match "after marker" ||
  fail "hang reason does not say it came after the marker"

set +e
"$BOOTBENCH" boot --arch x86_64 --append 'rdinit=/nonexistent' --accel tcg -n 1 >/dev/null 2>&1
status=$?
set -e
expect_eq "$status" 1 "exit status of a panic"
expect_eq "$(q "select outcome from boots order by id desc limit 1")" panic "panic outcome"
q "select outcome_reason from boots order by id desc limit 1" | has_match "Kernel panic" ||
  fail "panic reason lacks the panic line"

set +e
"$BOOTBENCH" boot --arch arm64 --kernel "$work/none" >/dev/null 2>"$work/err"
expect_eq "$?" 2 "missing kernel exit status"
grep -q "kernel not found: $work/none" "$work/err" || fail "missing kernel message: $(cat "$work/err")"
# A file that is not a kernel for the arch is refused at once, not booted to `silent`.
printf 'name: not-a-kernel\n' >"$work/exp.yaml"
"$BOOTBENCH" boot --arch arm64 --kernel "$work/exp.yaml" >/dev/null 2>"$work/err"
expect_eq "$?" 2 "non-kernel exit status"
grep -qF "kernel $work/exp.yaml is not a kernel image for arm64: found text (starts \"name: not-a-kernel\")" \
  "$work/err" || fail "non-kernel message: $(cat "$work/err")"
amd64_kernel=$(echo /var/cache/bootbench/debs/cloud-kernel-amd64/boot/vmlinuz-*)
"$BOOTBENCH" boot --arch arm64 --kernel "$amd64_kernel" >/dev/null 2>"$work/err"
expect_eq "$?" 2 "wrong-arch kernel exit status"
grep -q "is not a kernel image for arm64: found an x86 bzImage" "$work/err" ||
  fail "wrong-arch kernel message: $(cat "$work/err")"
expect_eq "$(q "select count(*) from boots where kernel_path = '$work/exp.yaml'")" 0 "a refused kernel boots"
"$BOOTBENCH" boot --arch arm64 --bios OVMF.fd >/dev/null 2>"$work/err"
expect_eq "$?" 2 "wrong-arch firmware exit status"
grep -q "OVMF.fd is x86_64 firmware" "$work/err" || fail "firmware message: $(cat "$work/err")"
"$BOOTBENCH" boot --arch arm64 --bios "$work/absent.fd" >/dev/null 2>"$work/err"
expect_eq "$?" 2 "missing firmware exit status"
q "pragma user_version = 99"
"$BOOTBENCH" boot --arch arm64 -n 1 >/dev/null 2>"$work/err"
expect_eq "$?" 2 "newer database exit status"
grep -q "newer than this bootbench" "$work/err" || fail "schema message: $(cat "$work/err")"
set -e
no_qemu_left
echo PASS
