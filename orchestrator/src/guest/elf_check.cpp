#include "guest/elf_check.h"

#include "guest/elf_dynamic.h"
#include "util/arch.h"
#include "util/error.h"
#include "util/paths.h"

#include <elf.h>

namespace bb {

void require_static_elf(const std::filesystem::path& path, Arch arch) {
    // The one ELF reader (guest/elf_dynamic.h): the machine, and an interpreter if any.
    ElfDynamic elf;
    try {
        elf = parse_elf_dynamic(read_file(path), path.string());
    } catch (const Error& error) {
        throw Error(path.string() + " is not a 64-bit ELF executable (" + error.what() + ")");
    }
    const int expected = profile(arch).elf_machine;
    if (elf.machine != expected) {
        throw Error(path.string() + " is not built for " + std::string(to_string(arch)));
    }
    if (elf.interpreter) {
        throw Error(path.string() + " is dynamically linked; the guest has no libraries (install "
                                    "busybox-static, not busybox)");
    }
}

} // namespace bb
