#pragma once
#include "guest/initramfs.h"
#include "guest/nested_init_script.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct NestedImageRequest {
    std::optional<std::filesystem::path> l2_kernel; // none: Debian's cloud arm64 kernel
    std::optional<std::filesystem::path> workload;  // runs in L2, between its markers
    std::vector<std::filesystem::path> programs;    // guest programs, compiled into L2's image
    std::vector<std::string> l2_modules;            // the L2 kernel's modules for L2's image
    L2Launch l2; // smp, memory, cmdline, firmware mode, devices and their queues
    std::optional<int> full_varstore_live; // set: start L2 from a full store (this many
                                           // live variables; artifacts/varstore_template.h)
};

struct NestedImage {
    Initramfs initramfs;
    std::filesystem::path l2_kernel;
    int libraries = 0;
    std::vector<std::string> debs; // the Debian packages of the L1 qemu and its libraries
    std::string varstore_fill;     // the fill's report when L2 starts from a full store
    std::vector<std::string> l2_driver_modules; // loaded in L2 before its marker, for the devices
    std::string sha256;                         // of the initramfs, stamped on every sample
};

// The L1 hypervisor's initramfs: arm64 qemu-system-aarch64 and its shared-library closure
// (from Debian arm64 packages, cached in $CACHE/nested), busybox, QEMU_EFI.fd, the L2 kernel
// and bootbench's own arm64 guest image as L2's initrd, with the /init of
// guest/nested_init_script.h. L2's devices (guest/l2_devices.h) bring their drivers: each module
// the L2 kernel does not build in goes into L2's image and is loaded before L2's marker. Cached
// by content like the ordinary guest image: the devices and queues are in /init's text.
NestedImage prepare_nested_image(const NestedImageRequest& request,
                                 const std::function<void(const std::string&)>& note);

} // namespace bb
