#include "guest/elf_dynamic.h"
#include "test_support.h"
#include "util/error.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <elf.h>
#include <string>

namespace {
constexpr Elf64_Addr k_base = 0x400000;
constexpr size_t k_interp_at = 0x200;
constexpr size_t k_strtab_at = 0x300;
constexpr size_t k_dynamic_at = 0x400;
const std::string k_strings = std::string("\0libfoo.so.1\0libbar.so.2\0libself.so.0\0", 38);

template <class T> void put(std::string& bytes, size_t offset, const T& value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

// A minimal aarch64 ELF as a linker lays it out: PT_INTERP, one PT_LOAD covering the file, and
// PT_DYNAMIC whose DT_STRTAB is a virtual address inside that load.
std::string synthetic_elf(bool with_interpreter) {
    std::string bytes(0x1000, '\0');
    Elf64_Ehdr header{};
    std::memcpy(header.e_ident, ELFMAG, SELFMAG);
    header.e_ident[EI_CLASS] = ELFCLASS64;
    header.e_ident[EI_DATA] = ELFDATA2LSB;
    header.e_machine = EM_AARCH64;
    header.e_phoff = sizeof header;
    header.e_phentsize = sizeof(Elf64_Phdr);
    header.e_phnum = 3;
    put(bytes, 0, header);

    Elf64_Phdr interp{};
    interp.p_type = with_interpreter ? PT_INTERP : PT_NOTE;
    interp.p_offset = k_interp_at;
    Elf64_Phdr load{};
    load.p_type = PT_LOAD;
    load.p_vaddr = k_base;
    load.p_filesz = bytes.size();
    Elf64_Phdr dynamic{};
    dynamic.p_type = PT_DYNAMIC;
    dynamic.p_offset = k_dynamic_at;
    dynamic.p_filesz = 5 * sizeof(Elf64_Dyn);
    put(bytes, header.e_phoff, interp);
    put(bytes, header.e_phoff + sizeof(Elf64_Phdr), load);
    put(bytes, header.e_phoff + 2 * sizeof(Elf64_Phdr), dynamic);

    bytes.replace(k_interp_at, 18, std::string("/lib/ld-test.so.1\0", 18));
    bytes.replace(k_strtab_at, k_strings.size(), k_strings);
    const Elf64_Dyn entries[] = {{DT_NEEDED, {1}},
                                 {DT_NEEDED, {13}},
                                 {DT_SONAME, {25}},
                                 {DT_STRTAB, {k_base + k_strtab_at}},
                                 {DT_NULL, {0}}};
    for (size_t i = 0; i < 5; ++i) {
        put(bytes, k_dynamic_at + i * sizeof(Elf64_Dyn), entries[i]);
    }
    return bytes;
}
} // namespace

TEST_CASE("DT_NEEDED, DT_SONAME and PT_INTERP are read from the file", "[elf]") {
    const bb::ElfDynamic elf = bb::parse_elf_dynamic(synthetic_elf(true), "a.out");
    CHECK(elf.machine == EM_AARCH64);
    CHECK(elf.interpreter == std::optional<std::string>("/lib/ld-test.so.1"));
    CHECK(elf.needed == std::vector<std::string>{"libfoo.so.1", "libbar.so.2"});
    CHECK(elf.soname == std::optional<std::string>("libself.so.0"));

    const bb::ElfDynamic library = bb::parse_elf_dynamic(synthetic_elf(false), "lib.so");
    CHECK_FALSE(library.interpreter.has_value());
    CHECK(library.needed.size() == 2);
}

TEST_CASE("a host executable needs libc", "[elf]") {
    const bb::ElfDynamic elf = bb::read_elf_dynamic("/bin/sh");
    CHECK(elf.interpreter.has_value());
    CHECK(std::find(elf.needed.begin(), elf.needed.end(), "libc.so.6") != elf.needed.end());
}

TEST_CASE("files that are not ELF, or are cut short, are named in the error", "[elf]") {
    CHECK(bb::test::thrown_message<bb::Error>([] {
              bb::parse_elf_dynamic("#!/bin/sh\n", "script");
          }) == "script is not a 64-bit little-endian ELF file");
    std::string truncated = synthetic_elf(true);
    truncated.resize(k_dynamic_at + 8);
    CHECK(bb::test::thrown_message<bb::Error>([&truncated] {
              bb::parse_elf_dynamic(truncated, "cut");
          }).find("cut: truncated ELF file") == 0);
}
