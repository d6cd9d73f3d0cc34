#include "guest/nested_init_script.h"

#include <fmt/format.h>

namespace bb {

namespace {
// Paths of the pflash images, made by /init in L1's RAM rather than shipped: 128 MiB of zeros
// would make the initramfs slower to unpack than to fill.
constexpr const char* k_pflash_code = "/tmp/efi-code.fd";
constexpr const char* k_pflash_vars = "/tmp/efi-vars.fd";

// Single quotes for the shell; our own paths and the user's cmdline are the only inputs.
std::string quoted(std::string_view text) {
    std::string out = "'";
    for (const char c : text) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}
} // namespace

std::string_view to_string(L2Firmware firmware) {
    return firmware == L2Firmware::Pflash ? "pflash" : "bios";
}

std::string l2_qemu_command(const L2Launch& l2) {
    std::string firmware;
    if (l2.firmware_mode == L2Firmware::Pflash) {
        firmware = fmt::format("-drive if=pflash,format=raw,unit=0,readonly=on,file={} "
                               "-drive if=pflash,format=raw,unit=1,file={}",
                               k_pflash_code, k_pflash_vars);
    } else {
        firmware = "-bios " + l2.firmware;
    }
    return fmt::format("LD_LIBRARY_PATH={} {} -enable-kvm -M virt,gic-version=3 -cpu host "
                       "-smp {} -m {} {} -display none -serial stdio -monitor none -nic none "
                       "-no-reboot -kernel {} -initrd {} -append {}",
                       l2.library_path, l2.qemu, l2.smp, l2.memory_mb, firmware, l2.kernel,
                       l2.initrd, quoted(l2.cmdline));
}

std::string nested_init_script(const L2Launch& l2) {
    std::string pflash;
    if (l2.firmware_mode == L2Firmware::Pflash) {
        pflash = fmt::format("dd if=/dev/zero of={0} bs=1M count=64 2>/dev/null\n"
                             "dd if={1} of={0} conv=notrunc 2>/dev/null\n"
                             "dd if=/dev/zero of={2} bs=1M count=64 2>/dev/null\n",
                             k_pflash_code, l2.firmware, k_pflash_vars);
    }
    // A delimited raw string: the script itself contains )".
    return fmt::format(R"sh(#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l1_boot} $up"
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin
# Count synchronize_srcu_expedited() with a kprobe event: kprobe_profile keeps its hit count
# even when the trace buffer overflows.
tracing=/sys/kernel/tracing
mount -t tracefs tracefs $tracing 2>/dev/null
counting=0
if echo 'p:bootbench/srcu_expedited synchronize_srcu_expedited' >> $tracing/kprobe_events &&
   echo 1 > $tracing/events/bootbench/srcu_expedited/enable; then
  counting=1
else
  echo "bootbench: no kprobe events in L1 (CONFIG_KPROBE_EVENTS?): {metric} not measured"
fi
hits() {{ awk '$1 == "srcu_expedited" || $1 == "bootbench/srcu_expedited" {{print $2}}' $tracing/kprobe_profile; }}
[ -c /dev/kvm ] || echo "bootbench: L1 has no /dev/kvm (CONFIG_KVM, -M virtualization=on?)"
{pflash}[ $counting = 1 ] && before=$(hits)
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l2_start} $up"
{qemu} </dev/null
status=$?
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l2_exit} $up"
[ $status = 0 ] || echo "bootbench: L2 qemu exited with status $status"
[ $counting = 1 ] && echo "BOOTBENCH-METRIC {metric} $(( $(hits) - before )) count"
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l1_end} $up"
sync
poweroff -f
)sh",
                       fmt::arg("l1_boot", k_l1_boot_marker),
                       fmt::arg("metric", k_srcu_expedited_metric), fmt::arg("pflash", pflash),
                       fmt::arg("l2_start", k_l2_start_marker),
                       fmt::arg("qemu", l2_qemu_command(l2)), fmt::arg("l2_exit", k_l2_exit_marker),
                       fmt::arg("l1_end", k_l1_end_marker));
}

} // namespace bb
