#include "guest/elf_check.h"

#include "util/error.h"
#include "util/paths.h"

#include <elf.h>

#include <cstring>

namespace bb {

void require_static_elf(const std::filesystem::path& path, Arch arch) {
    const std::string bytes = read_file(path);
    Elf64_Ehdr header{};
    if (bytes.size() < sizeof header || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
        bytes[EI_CLASS] != ELFCLASS64) {
        throw Error(path.string() + " is not a 64-bit ELF executable");
    }
    std::memcpy(&header, bytes.data(), sizeof header);
    const int expected = arch == Arch::Arm64 ? EM_AARCH64 : EM_X86_64;
    if (header.e_machine != expected) {
        throw Error(path.string() + " is not built for " + std::string(to_string(arch)));
    }
    for (int i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr program{};
        const size_t offset = header.e_phoff + static_cast<size_t>(i) * header.e_phentsize;
        if (offset + sizeof program > bytes.size()) {
            break;
        }
        std::memcpy(&program, bytes.data() + offset, sizeof program);
        if (program.p_type == PT_INTERP) {
            throw Error(path.string() +
                        " is dynamically linked; the guest has no libraries (install "
                        "busybox-static, not busybox)");
        }
    }
}

} // namespace bb
