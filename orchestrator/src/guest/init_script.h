#pragma once
#include <string>
#include <vector>

namespace bb {

// The guest's /init: mount /proc, print the boot marker with the guest's uptime beside it, run
// the workload (if the image has one), print the end marker and power off. Kept to the minimum
// before the marker so that the boot time measures the kernel, not our script. `boot_modules`
// (files /lib/modules/NAME.ko, in order) are loaded before the marker: drivers whose probing is
// part of the boot being measured (an L2's virtio devices, guest/l2_devices.h).
std::string default_init_script(const std::vector<std::string>& boot_modules = {});

// /init for images built from a user's own script: it runs in place of the workload, between
// the two markers, so a script that sleeps forever still produces a boot time.
std::string init_script_running(const std::string& workload_path,
                                const std::vector<std::string>& boot_modules = {});

} // namespace bb
