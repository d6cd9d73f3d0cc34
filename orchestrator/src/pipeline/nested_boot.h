#pragma once
#include "console/console_monitor.h"
#include "store/boot_record.h"
#include "vm/qemu_spec.h"

namespace bb {

// The L1 hypervisor's machine: TCG with EL2 emulated, so L1 can run L2 under KVM.
constexpr const char* k_l1_machine = "virt,virtualization=on,gic-version=3";
constexpr int k_l1_memory_mb = 3072;

// `limits` for a nested boot: the boot time spans from L1's `l2-start` to L2's timing marker,
// the run ends at L1's `l1-end`, and L2's power-off is not the end of the guest.
MonitorLimits nested_limits(MonitorLimits limits);

// L1's own timings, from its markers, as metrics of the boot: `l1_boot_seconds` (host time
// from qemu's start to L1's /init) and `l2_run_seconds` (L2's qemu from start to exit).
void add_l1_metrics(BootRecord& record);

} // namespace bb
