#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// What the dynamic loader needs to run an ELF file: its interpreter (PT_INTERP, executables
// only) and the sonames it asks for (DT_NEEDED), read from the file itself so that a foreign
// architecture's binaries can be examined without its toolchain.
struct ElfDynamic {
    int machine = 0; // e_machine (EM_AARCH64, EM_X86_64, ...)
    std::optional<std::string> interpreter;
    std::optional<std::string> soname; // DT_SONAME, libraries only
    std::vector<std::string> needed;   // DT_NEEDED, in file order
};

// Throws Error naming `what` when `bytes` are not a well-formed 64-bit little-endian ELF file.
ElfDynamic parse_elf_dynamic(std::string_view bytes, const std::string& what);
ElfDynamic read_elf_dynamic(const std::filesystem::path& path);

} // namespace bb
