#include "test_support.h"
#include "util/error.h"
#include "util/hash.h"
#include "vm/firmware.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using bb::Arch;

TEST_CASE("an unknown firmware name lists the known ones", "[firmware]") {
    const std::string message =
        bb::test::thrown_message<bb::Error>([] { bb::resolve_firmware("EDK2.fd", Arch::X86_64); });
    CHECK_THAT(message, Catch::Contains("unknown firmware name 'EDK2.fd'"));
    for (const char* known : {"QEMU_EFI.fd", "AAVMF_CODE.fd", "OVMF.fd", "OVMF_CODE.fd"}) {
        INFO(known);
        CHECK_THAT(message, Catch::Contains(known));
    }
    // Names are exact: the lookup is not case-insensitive guesswork.
    CHECK_THROWS_AS(bb::resolve_firmware("ovmf.fd", Arch::X86_64), bb::Error);
}

TEST_CASE("firmware of the wrong architecture is refused with the right name", "[firmware]") {
    const std::string arm_on_x86 = bb::test::thrown_message<bb::Error>(
        [] { bb::resolve_firmware("QEMU_EFI.fd", Arch::X86_64); });
    CHECK_THAT(arm_on_x86, Catch::Contains("QEMU_EFI.fd is arm64 firmware"));
    CHECK_THAT(arm_on_x86, Catch::Contains("this guest is x86_64"));
    CHECK_THAT(arm_on_x86, Catch::Contains("use OVMF.fd"));

    const std::string x86_on_arm = bb::test::thrown_message<bb::Error>(
        [] { bb::resolve_firmware("OVMF_CODE.fd", Arch::Arm64); });
    CHECK_THAT(x86_on_arm, Catch::Contains("OVMF_CODE.fd is x86_64 firmware"));
    CHECK_THAT(x86_on_arm, Catch::Contains("use QEMU_EFI.fd"));
}

TEST_CASE("firmware given by path is hashed", "[firmware]") {
    bb::test::TempDir dir;
    const fs::path path = dir / "my firmware.fd"; // a space must not matter
    bb::test::write_bytes(path, "abc");
    const bb::Firmware firmware = bb::resolve_firmware(path.string(), Arch::Arm64);
    CHECK(firmware.name == path.string());
    CHECK(firmware.path == path);
    CHECK(firmware.sha256 == bb::sha256_file(path));
    CHECK(firmware.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // A path is taken as given: the arch check only applies to well-known names.
    CHECK(bb::resolve_firmware(path.string(), Arch::X86_64).sha256 == firmware.sha256);
}

TEST_CASE("a relative firmware path is resolved to an absolute one", "[firmware]") {
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "fw.fd", "firmware bytes");
    const bb::Firmware firmware = [&] {
        // Back to the old directory even if resolve_firmware throws.
        struct RestoreCwd {
            fs::path previous = fs::current_path();
            ~RestoreCwd() { fs::current_path(previous); }
        } restore;
        fs::current_path(dir.path());
        return bb::resolve_firmware("./fw.fd", Arch::Arm64);
    }();
    CHECK(firmware.name == "./fw.fd");
    CHECK(firmware.path.is_absolute());
    CHECK(fs::equivalent(firmware.path, dir / "fw.fd"));
    CHECK(firmware.sha256 == bb::sha256_hex("firmware bytes"));
}

TEST_CASE("empty, missing and unreadable firmware paths are errors", "[firmware]") {
    bb::test::TempDir dir;
    const fs::path empty = dir / "empty.fd";
    bb::test::write_bytes(empty, "");
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::resolve_firmware(empty.string(), Arch::Arm64); }),
               Catch::Contains("is empty"));

    const fs::path missing = dir / "missing.fd";
    const std::string message = bb::test::thrown_message<bb::Error>(
        [&] { bb::resolve_firmware(missing.string(), Arch::Arm64); });
    CHECK_THAT(message, Catch::Contains("firmware not found"));
    CHECK_THAT(message, Catch::Contains(missing.string()));

    // A directory has no size to hash: a bb::Error, not a std::filesystem exception.
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::resolve_firmware(dir.path().string() + "/", Arch::Arm64); }),
               Catch::Contains("cannot be read"));
}

TEST_CASE("installed firmware is found by its well-known name", "[firmware]") {
    // scripts/setup.sh installs Debian's ovmf and qemu-efi-aarch64: absent firmware fails here.
    const bb::Firmware ovmf = bb::resolve_firmware("OVMF.fd", Arch::X86_64);
    CHECK(ovmf.name == "OVMF.fd");
    CHECK(ovmf.path == "/usr/share/ovmf/OVMF.fd");
    CHECK(ovmf.sha256 == bb::sha256_file("/usr/share/ovmf/OVMF.fd"));
    const bb::Firmware efi = bb::resolve_firmware("QEMU_EFI.fd", Arch::Arm64);
    CHECK(efi.path == "/usr/share/qemu-efi-aarch64/QEMU_EFI.fd");
    CHECK(efi.sha256.size() == 64);
}
