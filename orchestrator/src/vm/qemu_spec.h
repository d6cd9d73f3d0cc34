#pragma once
#include "util/arch.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

enum class Accel { Tcg, Kvm };
std::string_view to_string(Accel accel);

// Everything that decides the qemu command line of one boot. Empty strings mean "the arch's
// default" (arm64: -M virt -cpu max; x86_64: -M q35 -cpu max).
struct QemuSpec {
    Arch arch = Arch::Arm64;
    std::string machine;
    std::string cpu;
    int smp = 2;
    int memory_mb = 1024;
    std::optional<std::filesystem::path> firmware; // -bios
    std::filesystem::path kernel;
    std::optional<std::filesystem::path> initrd;
    std::string cmdline; // without console=; added per arch unless the user gave one
    Accel accel = Accel::Tcg;
    std::vector<std::string> extra_args;
};

std::string qemu_binary(Arch arch);
std::string default_machine(Arch arch);
std::string console_parameter(Arch arch);
// The kernel command line as the guest will see it.
std::string effective_cmdline(const QemuSpec& spec);
// The full argv, program first. Serial on stdio, no monitor, no display, no network, no reboot:
// the guest's console is our only channel and a reboot would hide a panic.
std::vector<std::string> qemu_argv(const QemuSpec& spec);

} // namespace bb
