#include "vm/kernel_image.h"

#include "util/arch.h"
#include "util/error.h"
#include "util/gzip.h"

#include <cstdint>
#include <fmt/format.h>
#include <fstream>
#include <utility>

namespace bb {

namespace fs = std::filesystem;

namespace {
// Documentation/arch/arm64/booting.rst: the 64-byte Image header, magic at offset 56.
constexpr std::size_t k_arm64_magic_offset = 56;
constexpr std::string_view k_arm64_magic{"ARM\x64", 4};
// Documentation/arch/x86/boot.rst: the real-mode header of a bzImage.
constexpr std::size_t k_x86_boot_flag = 0x1fe;
constexpr std::size_t k_x86_header = 0x202;
constexpr std::size_t k_x86_version = 0x206;
constexpr std::size_t k_x86_xloadflags = 0x236;
constexpr unsigned k_xlf_kernel_64 = 1U;
constexpr unsigned k_protocol_with_xloadflags = 0x020c;
// The PE header offset (e_lfanew) of an "MZ" executable, and the COFF machine numbers.
constexpr std::size_t k_pe_offset_field = 0x3c;
constexpr unsigned k_pe_arm64 = 0xaa64;
constexpr unsigned k_pe_x86_64 = 0x8664;
// ELF e_machine.
constexpr unsigned k_elf_aarch64 = 183;
constexpr unsigned k_elf_x86_64 = 62;

unsigned little_endian(std::string_view bytes, std::size_t offset, std::size_t width) {
    unsigned value = 0;
    for (std::size_t i = width; i-- > 0;) {
        value = (value << 8U) | static_cast<unsigned char>(bytes[offset + i]);
    }
    return value;
}

bool has_at(std::string_view bytes, std::size_t offset, std::string_view magic) {
    return bytes.size() >= offset + magic.size() && bytes.substr(offset, magic.size()) == magic;
}

std::optional<KernelImageFormat> as_arm64_image(std::string_view head) {
    if (!has_at(head, k_arm64_magic_offset, k_arm64_magic)) {
        return std::nullopt;
    }
    return KernelImageFormat{Arch::Arm64, "an arm64 Image"};
}

std::optional<KernelImageFormat> as_bzimage(std::string_view head) {
    if (head.size() < k_x86_xloadflags + 2 || !has_at(head, k_x86_header, "HdrS") ||
        little_endian(head, k_x86_boot_flag, 2) != 0xaa55) {
        return std::nullopt;
    }
    const unsigned version = little_endian(head, k_x86_version, 2);
    const std::string protocol =
        fmt::format("boot protocol {}.{:02}", version >> 8U, version & 0xffU);
    // Older protocols do not say whether the kernel is 64-bit; they predate every kernel we boot.
    if (version >= k_protocol_with_xloadflags &&
        (little_endian(head, k_x86_xloadflags, 2) & k_xlf_kernel_64) == 0) {
        return KernelImageFormat{std::nullopt, fmt::format("a 32-bit x86 bzImage ({})", protocol)};
    }
    return KernelImageFormat{Arch::X86_64, fmt::format("an x86 bzImage ({})", protocol)};
}

std::optional<KernelImageFormat> as_executable(std::string_view head) {
    if (has_at(head, 0, "\177ELF") && head.size() >= 20) {
        const unsigned machine = little_endian(head, 18, 2);
        const std::string_view hint = machine == k_elf_aarch64  ? " for aarch64 (a vmlinux?)"
                                      : machine == k_elf_x86_64 ? " for x86_64 (a vmlinux?)"
                                                                : "";
        return KernelImageFormat{std::nullopt, fmt::format("an ELF file{}", hint)};
    }
    if (!has_at(head, 0, "MZ") || head.size() < k_pe_offset_field + 4) {
        return std::nullopt;
    }
    if (has_at(head, 4, "zimg")) {
        return KernelImageFormat{std::nullopt, "an EFI zboot image (a compressed vmlinuz.efi)"};
    }
    const std::size_t pe = little_endian(head, k_pe_offset_field, 4);
    if (!has_at(head, pe, std::string_view("PE\0\0", 4)) || head.size() < pe + 6) {
        return KernelImageFormat{std::nullopt, "a DOS/PE executable without a kernel header"};
    }
    const unsigned machine = little_endian(head, pe + 4, 2);
    const std::string_view arch = machine == k_pe_arm64    ? "arm64"
                                  : machine == k_pe_x86_64 ? "x86_64"
                                                           : "another machine";
    return KernelImageFormat{
        std::nullopt,
        fmt::format("an EFI/PE executable for {} without a Linux kernel header", arch)};
}

std::optional<KernelImageFormat> as_compressed(std::string_view head) {
    static constexpr std::pair<std::string_view, std::string_view> k_magics[] = {
        {std::string_view("\x28\xb5\x2f\xfd", 4), "zstd"},
        {std::string_view("\3757zXZ\0", 6), "xz"},
        {"BZh", "bzip2"},
        {std::string_view("\x04\x22\x4d\x18", 4), "lz4"},
        {std::string_view("\x89LZO", 4), "lzo"}};
    for (const auto& [magic, name] : k_magics) {
        if (has_at(head, 0, magic)) {
            return KernelImageFormat{std::nullopt, fmt::format("{}-compressed data", name)};
        }
    }
    return std::nullopt;
}

bool looks_like_text(std::string_view head) {
    for (const char c : head.substr(0, 512)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 && byte != '\n' && byte != '\r' && byte != '\t') {
            return false;
        }
    }
    return !head.empty();
}

KernelImageFormat as_other(std::string_view head) {
    if (looks_like_text(head)) {
        std::string first_line(head.substr(0, head.find_first_of("\r\n")).substr(0, 40));
        for (char& c : first_line) {
            c = static_cast<unsigned char>(c) < 0x80 ? c : '?'; // keep the message printable
        }
        return {std::nullopt, fmt::format("text (starts \"{}\")", first_line)};
    }
    std::string bytes;
    for (const char c : head.substr(0, 8)) {
        bytes += fmt::format("{}{:02x}", bytes.empty() ? "" : " ", static_cast<unsigned char>(c));
    }
    return {std::nullopt, fmt::format("unrecognised data (first bytes {})", bytes)};
}

KernelImageFormat identify_uncompressed(std::string_view head) {
    // The arm64 Image and the bzImage both start with "MZ" when built with the EFI stub, so
    // their own headers are looked at first.
    for (auto* identify : {as_arm64_image, as_bzimage, as_executable, as_compressed}) {
        if (auto format = identify(head)) {
            return *format;
        }
    }
    return as_other(head);
}

std::string read_head(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(k_kernel_head_bytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    if (in.bad()) {
        throw Error(fmt::format("kernel {} cannot be read", path.string()));
    }
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head;
}

std::string hint_for(Arch arch) {
    const ArchProfile& p = profile(arch);
    return fmt::format("give an {} {} ({}, or Debian's {} vmlinuz)", p.name, p.image_target,
                       p.image_path, p.debian_name);
}
} // namespace

KernelImageFormat identify_kernel_image(std::string_view head) {
    if (!has_at(head, 0, "\x1f\x8b")) {
        return identify_uncompressed(head);
    }
    const std::string inner = gzip_decompress_head(head, k_arm64_magic_offset + 8);
    if (as_arm64_image(inner)) {
        return {Arch::Arm64, "a gzip-compressed arm64 Image"};
    }
    if (inner.empty()) {
        return {std::nullopt, "corrupt gzip data"};
    }
    return {std::nullopt, fmt::format("gzip-compressed {}", identify_uncompressed(inner).what)};
}

void require_kernel_image(const fs::path& path, Arch arch) {
    if (!fs::exists(path)) {
        throw Error("kernel not found: " + path.string());
    }
    if (!fs::is_regular_file(path)) {
        throw Error(fmt::format("kernel {} is not a regular file", path.string()));
    }
    const std::string head = read_head(path);
    if (head.empty()) {
        // qemu would start and sit silent on an empty image; say what is wrong instead.
        throw Error("kernel image is empty: " + path.string());
    }
    const KernelImageFormat format = identify_kernel_image(head);
    if (format.arch == arch) {
        return;
    }
    throw Error(fmt::format("kernel {} is not a kernel image for {}: found {}; {}", path.string(),
                            to_string(arch), format.what, hint_for(arch)));
}

} // namespace bb
