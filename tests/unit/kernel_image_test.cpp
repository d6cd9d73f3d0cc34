#include "artifacts/default_kernel.h"
#include "test_support.h"
#include "util/error.h"
#include "util/gzip.h"
#include "vm/kernel_image.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using bb::Arch;

namespace {
std::string arm64_header(bool efi_stub) {
    std::string head(64, '\0');
    if (efi_stub) {
        head.replace(0, 2, "MZ");
    }
    head.replace(56, 4, std::string("ARM\x64", 4));
    return head;
}

std::string bzimage_header(unsigned version, bool kernel_64) {
    std::string head(0x240, '\0');
    head.replace(0, 2, "MZ");
    head[0x1fe] = '\x55';
    head[0x1ff] = '\xaa';
    head.replace(0x202, 4, "HdrS");
    head[0x206] = static_cast<char>(version & 0xffU);
    head[0x207] = static_cast<char>(version >> 8U);
    head[0x236] = kernel_64 ? '\x01' : '\x00';
    return head;
}

std::string what(const std::string& head) {
    return bb::identify_kernel_image(head).what;
}

std::string refusal(const fs::path& path, Arch arch) {
    return bb::test::thrown_message<bb::Error>([&] { bb::require_kernel_image(path, arch); });
}
} // namespace

TEST_CASE("arm64 Images are recognised with and without the EFI stub, plain or gzip'd",
          "[kernel_image]") {
    for (const bool stub : {false, true}) {
        const auto format = bb::identify_kernel_image(arm64_header(stub));
        CHECK(format.arch == Arch::Arm64);
        CHECK(format.what == "an arm64 Image");
    }
    // qemu inflates a gzip'd arm64 Image for -kernel; only a file's head is read here.
    const std::string gzipped =
        bb::gzip_compress(arm64_header(true) + std::string(100'000, '\x5a'));
    const auto format = bb::identify_kernel_image(gzipped.substr(0, 40));
    CHECK(format.arch == Arch::Arm64);
    CHECK(format.what == "a gzip-compressed arm64 Image");
}

TEST_CASE("x86 bzImages are recognised by their boot header, 32-bit ones are refused",
          "[kernel_image]") {
    const auto format = bb::identify_kernel_image(bzimage_header(0x020f, true));
    CHECK(format.arch == Arch::X86_64);
    CHECK(format.what == "an x86 bzImage (boot protocol 2.15)");
    const auto i386 = bb::identify_kernel_image(bzimage_header(0x020f, false));
    CHECK_FALSE(i386.arch.has_value());
    CHECK(i386.what == "a 32-bit x86 bzImage (boot protocol 2.15)");
    // Before protocol 2.12 there is no 64-bit flag to read.
    CHECK(bb::identify_kernel_image(bzimage_header(0x020a, false)).arch == Arch::X86_64);
    std::string no_boot_flag = bzimage_header(0x020f, true);
    no_boot_flag[0x1fe] = '\0';
    CHECK_FALSE(bb::identify_kernel_image(no_boot_flag).arch.has_value());
}

TEST_CASE("files that are not kernel images say what they are", "[kernel_image]") {
    CHECK(what("name: smoke\nkernel:\n  arch: arm64\n") == "text (starts \"name: smoke\")");
    std::string elf = std::string("\x7f"
                                  "ELF\x02\x01\x01",
                                  7) +
                      std::string(40, '\0');
    elf[18] = static_cast<char>(183);
    CHECK(what(elf) == "an ELF file for aarch64 (a vmlinux?)");
    CHECK(what(std::string("MZ\0\0zimg", 8) + std::string(64, '\0')) ==
          "an EFI zboot image (a compressed vmlinuz.efi)");
    std::string pe = "MZ" + std::string(0x80, '\0');
    pe[0x3c] = '\x40';
    pe.replace(0x40, 6, std::string("PE\0\0\x64\xaa", 6));
    CHECK(what(pe) == "an EFI/PE executable for arm64 without a Linux kernel header");
    CHECK(what(std::string("\x28\xb5\x2f\xfd", 4) + std::string(64, '\0')) ==
          "zstd-compressed data");
    CHECK(what(bb::gzip_compress("name: x\n")) == "gzip-compressed text (starts \"name: x\")");
    CHECK(what(std::string("\x1f\x8b\x08\x00garbage", 11)) == "corrupt gzip data");
    CHECK(what(std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09", 9)) ==
          "unrecognised data (first bytes 01 02 03 04 05 06 07 08)");
    for (const std::string& head : {arm64_header(false), bzimage_header(0x020f, true)}) {
        CHECK(bb::identify_kernel_image(head.substr(0, 40)).arch == std::nullopt);
    }
}

TEST_CASE("require_kernel_image refuses a wrong file at once, naming file, arch and content",
          "[kernel_image]") {
    bb::test::TempDir dir;
    const fs::path yaml = dir / "exp.yaml";
    bb::test::write_bytes(yaml, "name: smoke\nkernel:\n  arch: arm64\n");
    CHECK(refusal(yaml, Arch::Arm64) ==
          "kernel " + yaml.string() +
              " is not a kernel image for arm64: found text (starts \"name: smoke\"); give an "
              "arm64 Image (arch/arm64/boot/Image, or Debian's arm64 vmlinuz)");
    CHECK(refusal(dir / "absent", Arch::X86_64) ==
          "kernel not found: " + (dir / "absent").string());
    bb::test::write_bytes(dir / "empty", "");
    CHECK(refusal(dir / "empty", Arch::X86_64) ==
          "kernel image is empty: " + (dir / "empty").string());
    CHECK(refusal(dir.path(), Arch::X86_64) ==
          "kernel " + dir.path().string() + " is not a regular file");
}

TEST_CASE("Debian's cloud kernels pass for their own arch and are refused for the other",
          "[kernel_image]") {
    // scripts/setup.sh unpacks both; a machine without them fails here rather than skipping.
    const auto arm64 = bb::default_kernel(Arch::Arm64);
    const auto amd64 = bb::default_kernel(Arch::X86_64);
    REQUIRE(arm64.has_value());
    REQUIRE(amd64.has_value());
    CHECK_NOTHROW(bb::require_kernel_image(*arm64, Arch::Arm64));
    CHECK_NOTHROW(bb::require_kernel_image(*amd64, Arch::X86_64));
    CHECK_THAT(refusal(*amd64, Arch::Arm64),
               Catch::Contains("is not a kernel image for arm64: found an x86 bzImage (boot "
                               "protocol 2."));
    CHECK_THAT(refusal(*arm64, Arch::X86_64),
               Catch::Contains("is not a kernel image for x86_64: found an arm64 Image; give an "
                               "x86_64 bzImage"));
}
