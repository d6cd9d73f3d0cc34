#include "guest/busybox.h"

#include "guest/elf_check.h"
#include "util/error.h"
#include "util/paths.h"

namespace bb {

namespace fs = std::filesystem;

fs::path find_busybox(Arch arch) {
    fs::path candidate;
    if (arch == host_arch()) {
        candidate = "/bin/busybox";
    } else {
        candidate = cache_dir() / "debs" / ("busybox-static-" + std::string(debian_name(arch))) /
                    "bin" / "busybox";
    }
    if (!fs::exists(candidate)) {
        throw RuntimeFailure("no static busybox for " + std::string(to_string(arch)) + " at " +
                    candidate.string() + ": run scripts/setup.sh");
    }
    require_static_elf(candidate, arch);
    return candidate;
}

} // namespace bb
