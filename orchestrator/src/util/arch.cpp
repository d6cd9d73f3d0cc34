#include "util/arch.h"

#include <algorithm>
#include <elf.h>

namespace bb {

namespace {
constexpr std::array<ArchProfile, 2> k_profiles{{
    {.arch = Arch::Arm64,
     .name = "arm64",
     .debian_name = "arm64",
     .qemu_name = "aarch64",
     .gnu_triplet = "aarch64-linux-gnu",
     .more_input_names = {"", ""},
     .image_target = "Image",
     .image_path = "arch/arm64/boot/Image",
     .base_fragment = "arm64-virt-minimal",
     .default_machine = "virt",
     .console = "ttyAMA0",
     .default_firmware = "QEMU_EFI.fd",
     .elf_machine = EM_AARCH64,
     .libvirt_acpi_element = false,
     .libvirt_cpu_mode_maximum = false},
    {.arch = Arch::X86_64,
     .name = "x86_64",
     .debian_name = "amd64",
     .qemu_name = "x86_64",
     .gnu_triplet = "x86_64-linux-gnu",
     .more_input_names = {"x86", ""},
     .image_target = "bzImage",
     .image_path = "arch/x86/boot/bzImage",
     .base_fragment = "x86_64-minimal",
     .default_machine = "q35",
     .console = "ttyS0",
     .default_firmware = "OVMF.fd",
     .elf_machine = EM_X86_64,
     .libvirt_acpi_element = true,
     .libvirt_cpu_mode_maximum = true},
}};
} // namespace

std::span<const ArchProfile> arch_profiles() {
    return k_profiles;
}

const ArchProfile& profile(Arch arch) {
    return *std::find_if(k_profiles.begin(), k_profiles.end(),
                         [arch](const ArchProfile& p) { return p.arch == arch; });
}

std::string_view to_string(Arch arch) {
    return profile(arch).name;
}

std::string_view debian_name(Arch arch) {
    return profile(arch).debian_name;
}

std::optional<Arch> arch_from_string(std::string_view text) {
    for (const ArchProfile& p : k_profiles) {
        const bool more = !text.empty() &&
                          std::ranges::find(p.more_input_names, text) != p.more_input_names.end();
        if (text == p.name || text == p.debian_name || text == p.qemu_name || more) {
            return p.arch;
        }
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

std::string cross_prefix(Arch arch) {
    return arch == host_arch() ? "" : std::string(profile(arch).gnu_triplet) + "-";
}

} // namespace bb
