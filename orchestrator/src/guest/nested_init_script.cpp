#include "guest/nested_init_script.h"

#include "guest/l1_srcu_probes.h"
#include "guest/l2_devices.h"
#include "util/shell_quote.h"

#include <fmt/format.h>

namespace bb {

namespace {
// Paths of the pflash images, made by /init in L1's RAM rather than shipped: 128 MiB of zeros
// would make the initramfs slower to unpack than to fill.
constexpr const char* k_pflash_code = "/tmp/efi-code.fd";
constexpr const char* k_pflash_vars = "/tmp/efi-vars.fd";

// Single quotes for the shell, always (the init script's own convention; shell_quote would leave
// plain words bare, which is equally correct but changes the generated script's text).
std::string single_quoted(std::string_view text) {
    const std::string word = shell_quote(text);
    return word.front() == '\'' ? word : "'" + word + "'";
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
        if (!l2.varstore_template.empty()) {
            firmware += fmt::format(" -drive if=pflash,format=raw,unit=1,file={}", k_pflash_vars);
        }
    }
    std::string devices;
    for (const auto& word : l2_device_arguments(l2.devices, l2.queues)) {
        devices += " " + shell_quote(word);
    }
    return fmt::format("LD_LIBRARY_PATH={} {} -enable-kvm -M virt,gic-version=3 -cpu host "
                       "-smp {} -m {} {} -display none -serial stdio -monitor none -nic none{} "
                       "-no-reboot -kernel {} -initrd {} -append {}",
                       l2.library_path, l2.qemu, l2.smp, l2.memory_mb, firmware, devices, l2.kernel,
                       l2.initrd, single_quoted(l2.cmdline));
}

namespace {
// The flash images L2's qemu opens, made before the timed span: a store from the template
// (qemu wants the whole 64 MiB), and in pflash mode the padded firmware too.
std::string flash_images(const L2Launch& l2) {
    std::string images;
    if (l2.firmware_mode == L2Firmware::Pflash) {
        images = fmt::format("dd if=/dev/zero of={0} bs=1M count=64 2>/dev/null\n"
                             "dd if={1} of={0} conv=notrunc 2>/dev/null\n",
                             k_pflash_code, l2.firmware);
    }
    if (l2.firmware_mode == L2Firmware::Pflash || !l2.varstore_template.empty()) {
        images += fmt::format("dd if=/dev/zero of={} bs=1M count=64 2>/dev/null\n", k_pflash_vars);
    }
    if (!l2.varstore_template.empty()) {
        images += fmt::format("dd if={} of={} conv=notrunc 2>/dev/null || echo \"bootbench: "
                              "copying the variable-store template failed\"\n",
                              l2.varstore_template, k_pflash_vars);
    }
    return images;
}
} // namespace

std::string nested_init_script(const L2Launch& l2) {
    // Made before the timed span, like the flash images: L2's boot is the guest's, not L1's dd.
    const std::string backing = flash_images(l2) + l2_device_setup(l2.devices);
    // A delimited raw string: the script itself contains )".
    return fmt::format(
        R"sh(#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l1_boot} $up"
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin
# SRCU probes (guest/l1_srcu_probes.cpp). kprobe_profile keeps hit counts even when the trace
# buffer overflows; the trace holds each synchronize_srcu_expedited() entry and return.
tracing=/sys/kernel/tracing
mount -t tracefs tracefs $tracing 2>/dev/null
{probes}kallsyms=/proc/kallsyms
{symbols}[ -c /dev/kvm ] || echo "bootbench: L1 has no /dev/kvm (CONFIG_KVM, -M virtualization=on?)"
cat > /tmp/srcu-report.awk <<'AWK'
{report}AWK
{backing}cat $tracing/kprobe_profile > /tmp/srcu-before 2>/dev/null
echo > $tracing/trace 2>/dev/null
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l2_start} $up"
{qemu} </dev/null
status=$?
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l2_exit} $up"
[ $status = 0 ] || echo "bootbench: L2 qemu exited with status $status"
cat $tracing/kprobe_profile > /tmp/srcu-after 2>/dev/null
echo 0 > $tracing/tracing_on 2>/dev/null
# After L2's exit marker: reading and pairing thousands of events takes L1 seconds under TCG.
cat $tracing/trace 2>/dev/null | awk -v width={bucket_us} -f /tmp/srcu-report.awk /tmp/srcu-before /tmp/srcu-after -
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER {l1_end} $up"
sync
poweroff -f
)sh",
        fmt::arg("l1_boot", k_l1_boot_marker), fmt::arg("probes", l1_srcu_probe_setup(l2.probes)),
        fmt::arg("symbols", l1_kvm_io_bus_symbols()), fmt::arg("report", l1_srcu_report_awk()),
        fmt::arg("backing", backing), fmt::arg("bucket_us", k_srcu_exp_bucket_us),
        fmt::arg("l2_start", k_l2_start_marker), fmt::arg("qemu", l2_qemu_command(l2)),
        fmt::arg("l2_exit", k_l2_exit_marker), fmt::arg("l1_end", k_l1_end_marker));
}

} // namespace bb
