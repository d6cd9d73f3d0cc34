#!/usr/bin/env bash
# A real x86_64 boot under OVMF. With accel auto, KVM is used only if a probe boot reaches the
# marker; on hosts where KVM guests hang the probe must notice and fall back to TCG.
. "$(dirname "$0")/lib.sh"
"$BOOTBENCH" boot --arch x86_64 --bios OVMF.fd -n 1 --append quiet
expect_eq "$(q "select outcome from boots")" ok "outcome"
accel=$(q "select accel from boots")
reason=$(q "select accel_reason from boots")
probe=$(q "select kvm_works from accel_probes" || true)
if [ -e /dev/kvm ]; then
  [ -n "$probe" ] || fail "KVM exists but no probe verdict was stored"
  [ "$probe" = 1 ] && expect_eq "$accel" kvm "accel after a passing probe"
  [ "$probe" = 0 ] && expect_eq "$accel" tcg "accel after a failing probe"
  echo "probe verdict: $probe ($reason)"
  # The verdict is cached: a second boot does not probe again.
  "$BOOTBENCH" boot --arch x86_64 --bios OVMF.fd -n 1 --append quiet --quiet >/dev/null
  expect_eq "$(q "select count(*) from accel_probes")" 1 "probe cached"
else
  expect_eq "$accel" tcg "accel without /dev/kvm"
fi
no_qemu_left
echo PASS
