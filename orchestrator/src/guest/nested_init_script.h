#pragma once
#include "guest/l1_srcu_probes.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Markers of the L1 hypervisor's /init, distinct from the L2 guest's own (`boot-done`, `end`),
// which reach the host through L1's console.
constexpr std::string_view k_l1_boot_marker = "l1-boot-done";
constexpr std::string_view k_l2_start_marker = "l2-start";
constexpr std::string_view k_l2_exit_marker = "l2-exit";
constexpr std::string_view k_l1_end_marker = "l1-end";
// synchronize_srcu_expedited() calls during L2's run (kprobe hits), printed by the report awk of
// guest/l1_srcu_probes.cpp under this name since before the other l1_srcu_* metrics existed.
constexpr std::string_view k_srcu_expedited_metric = "srcu_expedited_calls";

// How L2 gets its UEFI firmware: `-bios QEMU_EFI.fd`, or two pflash units (the firmware padded
// to 64 MiB, read-only, and a writable 64 MiB variable store), which makes the firmware write
// its variables and so change more KVM memory slots.
enum class L2Firmware { Bios, Pflash };
std::string_view to_string(L2Firmware firmware);

// What L1's /init starts as L2. Paths are inside the L1 image.
constexpr std::string_view k_l2_varstore_template = "/l2/efi-vars-template.fd";
struct L2Launch {
    std::string qemu = "/usr/bin/qemu-system-aarch64";
    std::string library_path = "/lib/aarch64-linux-gnu";
    std::string firmware = "/l2/QEMU_EFI.fd";
    std::string kernel = "/l2/Image";
    std::string initrd = "/l2/initrd.cpio.gz";
    int smp = 1;
    int memory_mb = 256;
    std::string cmdline = "console=ttyAMA0 quiet";
    L2Firmware firmware_mode = L2Firmware::Bios;
    // A variable store to start every boot from (the non-zero head of one, padded to the 64 MiB
    // flash by /init before the timed span); empty: the store is zeros. With -bios it becomes
    // pflash unit 1 beside the built-in firmware, which virt accepts (only unit 0 clashes).
    std::string varstore_template;
    L1Probes probes = L1Probes::All; // L1's SRCU probes during L2's run
    // virtio devices of guest/l2_devices.h, in order (a name may repeat), and the queue count of
    // those that take queues (`l2_queues`; none: qemu's default, one per vCPU).
    std::vector<std::string> devices;
    std::optional<int> queues;
};

// The L2 qemu command line as /init runs it, one shell word per argument (the devices' words
// quoted by util/shell_quote).
std::string l2_qemu_command(const L2Launch& l2);

// L1's /init: mounts, SRCU kprobe/kretprobe events (guest/l1_srcu_probes.h), the `l2-start`
// marker (after the devices' backing files are made), L2 under KVM with its console relayed to
// L1's, the `l2-exit` marker, then L1's SRCU activity during L2's run as BOOTBENCH-METRIC/-HIST
// lines, the `l1-end` marker and power-off.
std::string nested_init_script(const L2Launch& l2);

} // namespace bb
