#pragma once
#include "guest/initramfs.h"

#include <filesystem>
#include <optional>

namespace bb {

// bootbench's own initramfs for `arch`: busybox + the marker-printing /init, plus a workload
// script run between the markers when given. Cached by content in the cache directory.
Initramfs prepare_guest_image(Arch arch,
                              const std::optional<std::filesystem::path>& workload_script);

} // namespace bb
