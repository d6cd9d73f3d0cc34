#!/usr/bin/env bash
# In which boot phase does L2's firmware program its flash? Boots the L2 kernel once under TCG
# on this host (no KVM, no L1: the firmware's flash work is the same, only cheaper), with
# Debian's QEMU_EFI.fd as -bios and, as pflash unit 1, either a copy of a variable-store template
# (bootbench's $BOOTBENCH_CACHE/varstores/*.fd, nested.l2_varstore: full) or zeros (blank). qemu's
# trace event pflash_mode_read_array marks every return of the variable flash to ROM-device mode:
# one per program/erase sequence, i.e. one KVM memslot round trip (three
# synchronize_srcu_expedited() calls in an L1 hypervisor). The console and the trace share one
# stream, so each return is counted in the phase it falls in: firmware (before the kernel's EFI
# stub prints), kernel (to /init), userspace (after).
#
#   bash scripts/varstore-phases.sh [TEMPLATE.fd | blank] [L2 kernel]
set -euo pipefail
cache=${BOOTBENCH_CACHE:-/var/cache/bootbench}
template=${1:-$(ls -t "$cache"/varstores/*.fd 2>/dev/null | head -n 1)}
kernel=${2:-$(ls "$cache"/debs/cloud-kernel-arm64/boot/vmlinuz-* | head -n 1)}
busybox=$cache/debs/busybox-static-arm64/bin/busybox
[ -n "$template" ] || { echo "no template in $cache/varstores (run a nested.l2_varstore: full experiment, or say blank)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root/bin" "$work/root/proc"
cp "$busybox" "$work/root/bin/busybox"
cat >"$work/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
echo "USERSPACE-START"
/bin/busybox poweroff -f
INIT
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$work/initrd.gz")
truncate -s 64M "$work/vars.fd"
[ "$template" = blank ] || dd if="$template" of="$work/vars.fd" conv=notrunc status=none
timeout 600 qemu-system-aarch64 -M virt -cpu max -smp 1 -m 256 \
  -bios /usr/share/qemu-efi-aarch64/QEMU_EFI.fd \
  -drive if=pflash,format=raw,unit=1,file="$work/vars.fd" \
  -display none -serial stdio -monitor none -nic none -no-reboot \
  -kernel "$kernel" -initrd "$work/initrd.gz" -append 'console=ttyAMA0' \
  -trace pflash_mode_read_array 2>&1 | tr -d '\r' |
  awk -v store="$template" '
    /virt.flash1/ { n[phase]++ }
    /EFI stub: Booting Linux Kernel/ && phase == "" { phase = "k" }
    /USERSPACE-START/ { phase = "u" }
    END { printf "%s: flash1 ROM-mode returns: firmware %d, kernel %d, userspace %d, total %d\n",
                 store, n[""], n["k"], n["u"], n[""] + n["k"] + n["u"] }'
