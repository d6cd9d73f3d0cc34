// The architecture table (util/arch.h): every part reads its facts from one profile, so these
// pin what the parts derived from it before it existed (names, tools, images, qemu, firmware).
#include "artifacts/kernel_build.h"
#include "guest/program_builder.h"
#include "kernel/kernel_builder.h"
#include "util/arch.h"
#include "vm/qemu_spec.h"

#include <catch2/catch.hpp>
#include <elf.h>
#include <set>
#include <string>

using bb::Arch;
using bb::arch_from_string;
using bb::arch_profiles;
using bb::ArchProfile;
using bb::console_parameter;
using bb::cross_prefix;
using bb::debian_name;
using bb::default_fragment;
using bb::default_machine;
using bb::guest_compiler;
using bb::host_arch;
using bb::kernel_image_path;
using bb::kernel_image_target;
using bb::profile;
using bb::qemu_binary;
using bb::to_string;

TEST_CASE("every architecture has one profile, and every name of it parses back to it") {
    std::set<Arch> seen;
    for (const ArchProfile& p : arch_profiles()) {
        CHECK(seen.insert(p.arch).second);
        CHECK(&profile(p.arch) == &p);
        CHECK(arch_from_string(p.name) == p.arch);
        CHECK(arch_from_string(p.debian_name) == p.arch);
        CHECK(arch_from_string(p.qemu_name) == p.arch);
        for (std::string_view more : p.more_input_names) {
            if (!more.empty()) {
                CHECK(arch_from_string(more) == p.arch);
            }
        }
        CHECK(to_string(p.arch) == p.name);
    }
    CHECK(seen.size() == 2);
    CHECK_FALSE(arch_from_string("").has_value());
    CHECK_FALSE(arch_from_string("riscv64").has_value());
    CHECK(arch_from_string("x86") == Arch::X86_64);
    CHECK(arch_profiles().front().arch == Arch::Arm64);
}

TEST_CASE("the profile gives the tool names the parts used before it") {
    CHECK(qemu_binary(Arch::Arm64) == "qemu-system-aarch64");
    CHECK(qemu_binary(Arch::X86_64) == "qemu-system-x86_64");
    CHECK(default_machine(Arch::Arm64) == "virt");
    CHECK(default_machine(Arch::X86_64) == "q35");
    CHECK(console_parameter(Arch::Arm64) == "console=ttyAMA0");
    CHECK(console_parameter(Arch::X86_64) == "console=ttyS0");
    CHECK(debian_name(Arch::X86_64) == "amd64");
    CHECK(kernel_image_target(Arch::Arm64) == "Image");
    CHECK(kernel_image_target(Arch::X86_64) == "bzImage");
    CHECK(kernel_image_path(Arch::Arm64) == "arch/arm64/boot/Image");
    CHECK(kernel_image_path(Arch::X86_64) == "arch/x86/boot/bzImage");
    CHECK(default_fragment(Arch::Arm64) == "arm64-virt-minimal");
    CHECK(default_fragment(Arch::X86_64) == "x86_64-minimal");
    CHECK(profile(Arch::Arm64).elf_machine == EM_AARCH64);
    CHECK(profile(Arch::X86_64).elf_machine == EM_X86_64);
    CHECK(profile(Arch::Arm64).default_firmware == "QEMU_EFI.fd");
    CHECK(profile(Arch::X86_64).default_firmware == "OVMF.fd");
}

TEST_CASE("cross tools are named only for a foreign architecture") {
    for (const ArchProfile& p : arch_profiles()) {
        if (p.arch == host_arch()) {
            CHECK(cross_prefix(p.arch).empty());
            CHECK(guest_compiler(p.arch) == "gcc");
        } else {
            CHECK(cross_prefix(p.arch) == std::string(p.gnu_triplet) + "-");
            CHECK(guest_compiler(p.arch) == std::string(p.gnu_triplet) + "-gcc");
        }
    }
}
