#include "artifacts/default_kernel.h"

#include "util/paths.h"

namespace bb {

namespace fs = std::filesystem;

std::optional<fs::path> default_kernel(Arch arch) {
    const fs::path boot =
        cache_dir() / "debs" / ("cloud-kernel-" + std::string(debian_name(arch))) / "boot";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(boot, ec)) {
        if (entry.path().filename().string().rfind("vmlinuz-", 0) == 0) {
            return entry.path();
        }
    }
    return std::nullopt;
}

} // namespace bb
