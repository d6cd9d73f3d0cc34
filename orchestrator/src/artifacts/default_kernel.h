#pragma once
#include "util/arch.h"

#include <filesystem>
#include <optional>

namespace bb {

// The kernel `bootbench boot` uses when --kernel is not given: Debian's prebuilt cloud kernel
// that scripts/setup.sh unpacked into the cache. Stands in until a kernel of our own is built.
std::optional<std::filesystem::path> default_kernel(Arch arch);

} // namespace bb
