#pragma once
// What a file given as a kernel is, judged by its header, so a wrong file is refused before a
// boot starts. qemu-system-aarch64 loads any file it does not recognise as a raw image and
// jumps into it: a YAML file "boots" silently until the silence limit (60 s by default).
#include "util/arch.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace bb {

// Bytes of a file the identification reads (the x86 boot header ends before 0x270; a gzip'd
// arm64 Image's header inflates from far fewer).
inline constexpr std::size_t k_kernel_head_bytes = 64 * 1024;

struct KernelImageFormat {
    std::optional<Arch> arch; // the arch whose qemu -kernel boots it; none: not a kernel image
    std::string what;         // for messages: "an arm64 Image", "text (starts \"name: x\")", …
};

// Accepted: an arm64 Image (header magic "ARM\x64" at offset 56, with or without the EFI stub's
// "MZ"), the same gzip-compressed (qemu inflates it for -kernel; Debian's arm64 vmlinuz was one
// before bookworm), and a 64-bit x86 bzImage (boot flag 0xAA55, "HdrS" at 0x202, boot protocol
// 2.00 or later, XLF_KERNEL_64 from protocol 2.12). Not accepted: a vmlinux ELF, an EFI zboot
// image, a 32-bit bzImage, other compressions — none boots the way bootbench times a boot.
KernelImageFormat identify_kernel_image(std::string_view head);

// Throws Error naming the file, the arch and what the file is when it is missing, empty or
// not a kernel image for `arch`.
void require_kernel_image(const std::filesystem::path& path, Arch arch);

} // namespace bb
