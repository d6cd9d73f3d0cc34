#pragma once
#include "util/arch.h"

#include <filesystem>
#include <string>

namespace bb {

struct Firmware {
    std::string name;             // as the user wrote it: "QEMU_EFI.fd" or a path
    std::filesystem::path path;   // resolved
    std::string sha256;
};

// Resolves a `-bios` firmware by well-known name (QEMU_EFI.fd, OVMF.fd and their aliases,
// searched in Debian's package locations) or by path, checks it is readable and non-empty, and
// hashes it so each boot records exactly which firmware ran. Throws Error naming the package to
// install when a known name is missing.
Firmware resolve_firmware(const std::string& name_or_path, Arch arch);

} // namespace bb
