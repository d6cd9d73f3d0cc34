#pragma once
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace bb {

// Guest CPU architectures bootbench knows how to boot. Spelled as the kernel spells them
// (ARCH=arm64, x86_64); Debian's and qemu's names (amd64, aarch64) are accepted on input.
enum class Arch { X86_64, Arm64 };

// Everything bootbench needs to know about one architecture, stated once: every part (kernel
// builds, guest programs, qemu, libvirt, firmware, doctor) reads it here, so adding an
// architecture is one enum value and one entry of the table in arch.cpp.
struct ArchProfile {
    Arch arch;
    std::string_view name;        // the kernel's ARCH= and bootbench's spelling ("arm64")
    std::string_view debian_name; // dpkg's architecture ("amd64")
    std::string_view qemu_name;   // qemu's and libvirt's ("aarch64"): qemu-system-<qemu_name>
    std::string_view gnu_triplet; // multiarch triplet, the cross tools' prefix without its '-'
    std::array<std::string_view, 2> more_input_names; // also accepted on input ("" if none)
    std::string_view image_target;                    // make target of the bootable image ("Image")
    std::string_view image_path;                      // where make leaves it in the build tree
    std::string_view base_fragment;    // bootbench's minimal config fragment (kernels/fragments)
    std::string_view default_machine;  // qemu -machine when the experiment names none
    std::string_view console;          // the serial console the guest writes to ("ttyAMA0")
    std::string_view default_firmware; // the UEFI firmware bootbench names in hints
    int elf_machine;                   // e_machine of its binaries (EM_AARCH64)
    // libvirt switches ACPI with the <acpi/> feature element (x86); where it does not (arm64:
    // refused without a UEFI loader), only qemu's -machine acpi=off can say "off".
    bool libvirt_acpi_element;
    // libvirt spells qemu's -cpu max as <cpu mode='maximum'> (x86); elsewhere bootbench names the
    // model max in a custom <cpu>.
    bool libvirt_cpu_mode_maximum;
};

const ArchProfile& profile(Arch arch);
std::span<const ArchProfile> arch_profiles(); // every architecture, arm64 first

std::string_view to_string(Arch arch);
std::string_view debian_name(Arch arch);
std::optional<Arch> arch_from_string(std::string_view text);
Arch host_arch();
// The cross tools' prefix ("aarch64-linux-gnu-"), empty for the host's own architecture.
std::string cross_prefix(Arch arch);

} // namespace bb
