#include "util/arch.h"

namespace bb {

std::string_view to_string(Arch arch) { return arch == Arch::Arm64 ? "arm64" : "x86_64"; }

std::string_view debian_name(Arch arch) { return arch == Arch::Arm64 ? "arm64" : "amd64"; }

std::optional<Arch> arch_from_string(std::string_view text) {
    if (text == "arm64" || text == "aarch64") {
        return Arch::Arm64;
    }
    if (text == "x86_64" || text == "amd64" || text == "x86") {
        return Arch::X86_64;
    }
    return std::nullopt;
}

Arch host_arch() {
#if defined(__aarch64__)
    return Arch::Arm64;
#else
    return Arch::X86_64;
#endif
}

} // namespace bb
