#include "vm/firmware.h"

#include "util/arch.h"
#include "util/error.h"
#include "util/hash.h"

#include <array>

namespace bb {

namespace fs = std::filesystem;

namespace {
struct KnownFirmware {
    std::string_view name;
    Arch arch;
    std::string_view package;
    std::array<std::string_view, 3> paths;
};

constexpr std::array<KnownFirmware, 4> k_known{{
    {"QEMU_EFI.fd", Arch::Arm64, "qemu-efi-aarch64",
     {"/usr/share/qemu-efi-aarch64/QEMU_EFI.fd", "/usr/share/AAVMF/AAVMF_CODE.fd", ""}},
    {"AAVMF_CODE.fd", Arch::Arm64, "qemu-efi-aarch64",
     {"/usr/share/AAVMF/AAVMF_CODE.fd", "/usr/share/qemu-efi-aarch64/QEMU_EFI.fd", ""}},
    {"OVMF.fd", Arch::X86_64, "ovmf", {"/usr/share/ovmf/OVMF.fd", "/usr/share/qemu/OVMF.fd", ""}},
    {"OVMF_CODE.fd", Arch::X86_64, "ovmf", {"/usr/share/OVMF/OVMF_CODE.fd", "", ""}},
}};

Firmware hashed(std::string name, fs::path path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) {
        throw Error("firmware " + path.string() + " cannot be read: " + ec.message());
    }
    if (size == 0) {
        throw Error("firmware " + path.string() + " is empty");
    }
    return Firmware{std::move(name), path, sha256_file(path)};
}
} // namespace

Firmware resolve_firmware(const std::string& name_or_path, Arch arch) {
    if (name_or_path.find('/') != std::string::npos) {
        if (!fs::exists(name_or_path)) {
            throw Error("firmware not found: " + name_or_path);
        }
        return hashed(name_or_path, fs::absolute(name_or_path));
    }
    for (const auto& known : k_known) {
        if (known.name != name_or_path) {
            continue;
        }
        if (known.arch != arch) {
            throw Error(name_or_path + " is " + std::string(to_string(known.arch)) +
                        " firmware; this guest is " + std::string(to_string(arch)) + " (use " +
                        std::string(profile(arch).default_firmware) + ")");
        }
        for (auto candidate : known.paths) {
            if (!candidate.empty() && fs::exists(candidate)) {
                return hashed(name_or_path, fs::path(candidate));
            }
        }
        throw RuntimeFailure("firmware " + name_or_path + " not found: install Debian's " +
                    std::string(known.package) + " package (scripts/setup.sh does)");
    }
    throw Error("unknown firmware name '" + name_or_path +
                "': give a path, or one of QEMU_EFI.fd, AAVMF_CODE.fd, OVMF.fd, OVMF_CODE.fd");
}

} // namespace bb
