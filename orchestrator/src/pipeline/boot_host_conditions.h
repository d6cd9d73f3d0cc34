#pragma once
// The host conditions a stored boot carries (util/host_conditions.h), with what only the boot
// knows: the qemu that ran it and the accelerator. Read where the boot ran: a boot on this
// machine (qemu, or libvirt's local daemon) gets them, a fleet host's boot does not — this
// machine's sysfs says nothing about it.
#include "store/boot_record.h"

#include <optional>
#include <string>

namespace bb {

// The JSON object to store with `boot`, or none when it ran on another machine.
std::optional<std::string> boot_host_conditions(const BootRecord& boot);

} // namespace bb
