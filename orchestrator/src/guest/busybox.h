#pragma once
#include "util/arch.h"

#include <filesystem>

namespace bb {

// The statically linked busybox for `arch`: the host's own package for the host architecture,
// the copy scripts/setup.sh unpacked into the cache for a foreign one. Throws Error with the
// command that fixes it when absent.
std::filesystem::path find_busybox(Arch arch);

} // namespace bb
