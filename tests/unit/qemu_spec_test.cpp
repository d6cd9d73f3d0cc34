#include "vm/qemu_spec.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

using bb::Accel;
using bb::Arch;
using bb::QemuSpec;
using Argv = std::vector<std::string>;

namespace {
// The value following `option`, or "<absent>"; fails if the option appears twice.
std::string option_value(const Argv& argv, const std::string& option) {
    const auto count = std::count(argv.begin(), argv.end(), option);
    if (count == 0) {
        return "<absent>";
    }
    REQUIRE(count == 1);
    const auto at = std::find(argv.begin(), argv.end(), option);
    REQUIRE(at + 1 != argv.end());
    return *(at + 1);
}
} // namespace

TEST_CASE("arm64 defaults give the exact argv", "[qemu]") {
    QemuSpec spec;
    spec.arch = Arch::Arm64;
    spec.kernel = "/k/Image";
    const Argv expected{"qemu-system-aarch64",
                        "-M",
                        "virt",
                        "-cpu",
                        "max",
                        "-accel",
                        "tcg",
                        "-smp",
                        "2",
                        "-m",
                        "1024",
                        "-kernel",
                        "/k/Image",
                        "-append",
                        "console=ttyAMA0",
                        "-display",
                        "none",
                        "-serial",
                        "stdio",
                        "-monitor",
                        "none",
                        "-nic",
                        "none",
                        "-no-reboot"};
    CHECK(bb::qemu_argv(spec) == expected);
    CHECK(bb::effective_cmdline(spec) == "console=ttyAMA0");
}

TEST_CASE("x86_64 uses q35 and ttyS0", "[qemu]") {
    QemuSpec spec;
    spec.arch = Arch::X86_64;
    spec.kernel = "/k/bzImage";
    spec.cmdline = "quiet";
    spec.smp = 4;
    spec.memory_mb = 512;
    const Argv argv = bb::qemu_argv(spec);
    CHECK(argv.front() == "qemu-system-x86_64");
    CHECK(option_value(argv, "-M") == "q35");
    CHECK(option_value(argv, "-cpu") == "max");
    CHECK(option_value(argv, "-smp") == "4");
    CHECK(option_value(argv, "-m") == "512");
    CHECK(option_value(argv, "-append") == "console=ttyS0 quiet");
    CHECK(bb::effective_cmdline(spec) == "console=ttyS0 quiet");
    CHECK(argv.back() == "-no-reboot");
}

TEST_CASE("helpers name the per-arch defaults", "[qemu]") {
    CHECK(bb::qemu_binary(Arch::Arm64) == "qemu-system-aarch64");
    CHECK(bb::qemu_binary(Arch::X86_64) == "qemu-system-x86_64");
    CHECK(bb::default_machine(Arch::Arm64) == "virt");
    CHECK(bb::default_machine(Arch::X86_64) == "q35");
    CHECK(bb::console_parameter(Arch::Arm64) == "console=ttyAMA0");
    CHECK(bb::console_parameter(Arch::X86_64) == "console=ttyS0");
    CHECK(bb::to_string(Accel::Kvm) == "kvm");
    CHECK(bb::to_string(Accel::Tcg) == "tcg");
}

TEST_CASE("a console= given by the user is kept as is", "[qemu]") {
    QemuSpec spec;
    spec.arch = Arch::X86_64;
    spec.kernel = "/k/bzImage";
    spec.cmdline = "console=hvc0 loglevel=8";
    CHECK(bb::effective_cmdline(spec) == "console=hvc0 loglevel=8");
    CHECK(option_value(bb::qemu_argv(spec), "-append") == "console=hvc0 loglevel=8");

    spec.cmdline = "quiet console=ttyS1,115200";
    CHECK(bb::effective_cmdline(spec) == "quiet console=ttyS1,115200");
}

// netconsole= (or any parameter whose name ends in "console") is not a console= parameter: the
// serial console must still be added or the boot has no output and ends as "silent".
TEST_CASE("a parameter merely containing console= does not suppress the serial console", "[qemu]") {
    QemuSpec spec;
    spec.arch = Arch::X86_64;
    spec.cmdline = "netconsole=6665@10.0.0.1/eth0,6666@10.0.0.2/";
    CHECK(bb::effective_cmdline(spec) ==
          "console=ttyS0 netconsole=6665@10.0.0.1/eth0,6666@10.0.0.2/");
}

TEST_CASE("qemu gets -bios only when firmware is set", "[qemu]") {
    QemuSpec spec;
    spec.arch = Arch::Arm64;
    spec.kernel = "/k/Image";
    CHECK(option_value(bb::qemu_argv(spec), "-bios") == "<absent>");
    spec.firmware = "/usr/share/qemu-efi-aarch64/QEMU_EFI.fd";
    const Argv argv = bb::qemu_argv(spec);
    CHECK(option_value(argv, "-bios") == "/usr/share/qemu-efi-aarch64/QEMU_EFI.fd");
    // Firmware goes before the kernel, in a fixed place, so stored argvs compare line by line.
    const auto bios = std::find(argv.begin(), argv.end(), "-bios");
    const auto kernel = std::find(argv.begin(), argv.end(), "-kernel");
    CHECK(bios < kernel);
}

TEST_CASE("qemu gets -initrd only when an initrd is set", "[qemu]") {
    QemuSpec spec;
    spec.kernel = "/k/Image";
    CHECK(option_value(bb::qemu_argv(spec), "-initrd") == "<absent>");
    spec.initrd = "/cache/images/initramfs-arm64-0123456789abcdef.cpio.gz";
    CHECK(option_value(bb::qemu_argv(spec), "-initrd") ==
          "/cache/images/initramfs-arm64-0123456789abcdef.cpio.gz");
}

TEST_CASE("qemu -accel follows the chosen accelerator", "[qemu]") {
    QemuSpec spec;
    spec.kernel = "/k/Image";
    spec.accel = Accel::Kvm;
    CHECK(option_value(bb::qemu_argv(spec), "-accel") == "kvm");
    spec.accel = Accel::Tcg;
    CHECK(option_value(bb::qemu_argv(spec), "-accel") == "tcg");
}

TEST_CASE("machine and cpu overrides replace the defaults", "[qemu]") {
    QemuSpec spec;
    spec.arch = Arch::Arm64;
    spec.kernel = "/k/Image";
    spec.machine = "virt,gic-version=3";
    spec.cpu = "cortex-a57";
    const Argv argv = bb::qemu_argv(spec);
    CHECK(option_value(argv, "-M") == "virt,gic-version=3");
    CHECK(option_value(argv, "-cpu") == "cortex-a57");
}

TEST_CASE("arguments with spaces and shell characters stay one element", "[qemu]") {
    QemuSpec spec;
    spec.arch = Arch::X86_64;
    spec.kernel = "/tmp/my kernels/bzImage; rm -rf ~";
    spec.cmdline = "quiet init=/bin/sh rdinit=\"$(id)\"";
    const Argv argv = bb::qemu_argv(spec);
    CHECK(option_value(argv, "-kernel") == "/tmp/my kernels/bzImage; rm -rf ~");
    CHECK(option_value(argv, "-append") == "console=ttyS0 quiet init=/bin/sh rdinit=\"$(id)\"");
    CHECK(argv.size() == 24);
}

TEST_CASE("extra args are appended last, in order", "[qemu]") {
    QemuSpec spec;
    spec.kernel = "/k/Image";
    spec.extra_args = {"-device", "virtio-rng-pci", "-d", "guest_errors,unimp"};
    const Argv argv = bb::qemu_argv(spec);
    REQUIRE(argv.size() == 28);
    const Argv tail(argv.end() - 5, argv.end());
    CHECK(tail == Argv{"-no-reboot", "-device", "virtio-rng-pci", "-d", "guest_errors,unimp"});
}
