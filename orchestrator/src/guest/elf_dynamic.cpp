#include "guest/elf_dynamic.h"

#include "util/error.h"
#include "util/paths.h"

#include <elf.h>

#include <cstring>

namespace bb {

namespace {
template <class T> T read_at(std::string_view bytes, size_t offset, const std::string& what) {
    T value{};
    if (offset > bytes.size() || bytes.size() - offset < sizeof value) {
        throw Error(what + ": truncated ELF file (a header points past its end)");
    }
    std::memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

std::string string_at(std::string_view bytes, size_t offset, const std::string& what) {
    if (offset >= bytes.size()) {
        throw Error(what + ": ELF string table points past the end of the file");
    }
    const size_t end = bytes.find('\0', offset);
    if (end == std::string_view::npos) {
        throw Error(what + ": unterminated string in the ELF file");
    }
    return std::string(bytes.substr(offset, end - offset));
}
} // namespace

ElfDynamic parse_elf_dynamic(std::string_view bytes, const std::string& what) {
    if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
        bytes[EI_CLASS] != ELFCLASS64 || bytes[EI_DATA] != ELFDATA2LSB) {
        throw Error(what + " is not a 64-bit little-endian ELF file");
    }
    const auto header = read_at<Elf64_Ehdr>(bytes, 0, what);
    ElfDynamic info;
    info.machine = header.e_machine;

    std::vector<Elf64_Phdr> loads;
    std::optional<Elf64_Phdr> dynamic;
    for (size_t i = 0; i < header.e_phnum; ++i) {
        const auto program =
            read_at<Elf64_Phdr>(bytes, header.e_phoff + i * header.e_phentsize, what);
        if (program.p_type == PT_LOAD) {
            loads.push_back(program);
        } else if (program.p_type == PT_DYNAMIC) {
            dynamic = program;
        } else if (program.p_type == PT_INTERP) {
            info.interpreter = string_at(bytes, program.p_offset, what);
        }
    }
    if (!dynamic) {
        return info; // statically linked
    }

    // DT_STRTAB holds a virtual address: the load segment containing it gives its file offset.
    auto file_offset = [&](Elf64_Addr address) -> size_t {
        for (const auto& load : loads) {
            if (address >= load.p_vaddr && address < load.p_vaddr + load.p_filesz) {
                return load.p_offset + (address - load.p_vaddr);
            }
        }
        throw Error(what + ": DT_STRTAB lies outside every loaded segment");
    };
    std::vector<Elf64_Xword> needed_offsets;
    std::optional<Elf64_Xword> soname_offset;
    std::optional<Elf64_Addr> string_table;
    for (size_t offset = dynamic->p_offset;
         offset + sizeof(Elf64_Dyn) <= dynamic->p_offset + dynamic->p_filesz;
         offset += sizeof(Elf64_Dyn)) {
        const auto entry = read_at<Elf64_Dyn>(bytes, offset, what);
        if (entry.d_tag == DT_NULL) {
            break;
        }
        if (entry.d_tag == DT_NEEDED) {
            needed_offsets.push_back(entry.d_un.d_val);
        } else if (entry.d_tag == DT_SONAME) {
            soname_offset = entry.d_un.d_val;
        } else if (entry.d_tag == DT_STRTAB) {
            string_table = entry.d_un.d_ptr;
        }
    }
    if (!string_table) {
        if (needed_offsets.empty() && !soname_offset) {
            return info;
        }
        throw Error(what + ": dynamic section without DT_STRTAB");
    }
    const size_t strings = file_offset(*string_table);
    for (const auto needed : needed_offsets) {
        info.needed.push_back(string_at(bytes, strings + needed, what));
    }
    if (soname_offset) {
        info.soname = string_at(bytes, strings + *soname_offset, what);
    }
    return info;
}

ElfDynamic read_elf_dynamic(const std::filesystem::path& path) {
    return parse_elf_dynamic(read_file(path), path.string());
}

} // namespace bb
