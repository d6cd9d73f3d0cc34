#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace bb {

// Guest CPU architectures bootbench knows how to boot. Spelled as the kernel spells them
// (ARCH=arm64, x86_64); Debian's names (amd64) are accepted on input.
enum class Arch { X86_64, Arm64 };

std::string_view to_string(Arch arch);
std::string_view debian_name(Arch arch);
std::optional<Arch> arch_from_string(std::string_view text);
Arch host_arch();

} // namespace bb
