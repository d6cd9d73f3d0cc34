#include "artifacts/guest_image.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using bb::test::TempDir;
using bb::test::write_bytes;

TEST_CASE("a named module is found beside a built kernel or in a Debian package's tree",
          "[guest-image]") {
    TempDir dir;
    fs::create_directories(dir / "build/modules");
    write_bytes(dir / "build/Image", "kernel");
    write_bytes(dir / "build/modules/rcuscale.ko", "module");
    CHECK(bb::kernel_module_named(dir / "build/Image", "rcuscale") ==
          dir / "build/modules/rcuscale.ko");

    const fs::path tree = dir / "deb/lib/modules/6.1.0-57-cloud-arm64/kernel/fs/efivarfs";
    fs::create_directories(tree);
    fs::create_directories(dir / "deb/boot");
    write_bytes(dir / "deb/boot/vmlinuz-6.1.0-57-cloud-arm64", "kernel");
    write_bytes(tree / "efivarfs.ko", "module");
    CHECK(bb::kernel_module_named(dir / "deb/boot/vmlinuz-6.1.0-57-cloud-arm64", "efivarfs") ==
          tree / "efivarfs.ko");
}

TEST_CASE("a module the kernel does not have is an error naming where it looked", "[guest-image]") {
    TempDir dir;
    fs::create_directories(dir / "deb/boot");
    write_bytes(dir / "deb/boot/vmlinuz", "kernel");
    const std::string message = bb::test::thrown_message<bb::Error>(
        [&] { bb::kernel_module_named(dir / "deb/boot/vmlinuz", "efivarfs"); });
    CHECK(message.find("no module efivarfs.ko for kernel") != std::string::npos);
    CHECK(message.find((dir / "deb/boot/modules").string()) != std::string::npos);
    CHECK(message.find((dir / "deb/lib/modules").string()) != std::string::npos);
}
