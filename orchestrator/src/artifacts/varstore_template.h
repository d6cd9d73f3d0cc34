#pragma once
#include <filesystem>
#include <functional>
#include <string>

namespace bb {

// Seed 000's boot-time setup: a UEFI variable store that an earlier boot left full.
//
// Debian's QEMU_EFI.fd (edk2) counts deleted variable copies as used space and, at ReadyToBoot
// of every boot, rewrites the whole store through its fault-tolerant-write protocol when less
// than a maximum-size variable's room is left (ReclaimForOS). On qemu's NOR flash each program
// sequence of that rewrite switches the flash out of ROM-device mode and back: two KVM memslot
// changes in the L1 hypervisor, three synchronize_srcu_expedited() calls — thousands per boot,
// all before the L2 kernel's EFI stub runs, and again at every boot that starts from a copy.
struct VarstoreRequest {
    std::filesystem::path l2_kernel; // the kernel the template boot runs (L2's own)
    std::filesystem::path firmware;  // QEMU_EFI.fd, the one L2 boots
    int live_variables = 4;          // 4 KiB variables left live: the reclaim copies them
    int memory_mb = 256;             // L2's memory: the firmware records its memory map
};

struct VarstoreTemplate {
    std::filesystem::path path; // the store's non-zero head; /init pads it to the 64 MiB flash
    std::string key;
    bool cache_hit = false;
    std::string fill_report; // efivar_fill's BOOTBENCH-VARSTORE line
};

// Made once per request and cached by content in $CACHE/varstores: boots the L2 kernel under
// TCG on the host (no KVM: the fill costs seconds, not the hours L1 would take) with the
// firmware, an empty 64 MiB store as pflash unit 1, and a guest image whose workload
// (guest-images/workloads/efivar-fill.sh) fills the store until the firmware answers ENOSPC.
// Throws RuntimeFailure with the boot's last lines when the store did not fill.
VarstoreTemplate prepare_full_varstore(const VarstoreRequest& request,
                                       const std::function<void(const std::string&)>& note);

} // namespace bb
