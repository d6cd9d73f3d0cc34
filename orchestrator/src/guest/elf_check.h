#pragma once
#include "util/arch.h"

#include <filesystem>

namespace bb {

// Throws Error unless `path` is a statically linked ELF executable for `arch`. A dynamic busybox
// (Debian's non-static package) or one of the wrong architecture would make the guest's /init
// fail with nothing on the console but "Kernel panic - not syncing: No working init found".
void require_static_elf(const std::filesystem::path& path, Arch arch);

} // namespace bb
