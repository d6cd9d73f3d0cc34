#include "guest/apt_closure.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

TEST_CASE("apt's simulated install: every Inst line, arch-qualified unless arch all",
          "[packages]") {
    const std::string output =
        "NOTE: This is only a simulation!\n"
        "Reading package lists...\n"
        "The following NEW packages will be installed:\n"
        "  gcc-12-base libc6 qemu-system-arm\n"
        "Inst libaudit-common (1:3.0.9-1 Debian:12.15/oldstable [all])\n"
        "Inst gcc-12-base (12.2.0-14+deb12u1 Debian:12.15/oldstable [arm64])\n"
        "Inst libgcc-s1 (12.2.0-14+deb12u1 Debian:12.15/oldstable [arm64]) []\n"
        "Inst libc6 (2.36-9+deb12u14 Debian:12.15/oldstable [arm64])\n"
        "Conf libc6 (2.36-9+deb12u14 Debian:12.15/oldstable [arm64])\n"
        "Inst qemu-system-arm (1:7.2+dfsg-7+deb12u18 Debian:12.15/oldstable [arm64])\n";
    CHECK(bb::parse_apt_simulation(output) ==
          std::vector<std::string>{"libaudit-common", "gcc-12-base:arm64", "libgcc-s1:arm64",
                                   "libc6:arm64", "qemu-system-arm:arm64"});
    CHECK(bb::parse_apt_simulation("E: Unable to locate package nothing\n").empty());
}

TEST_CASE("apt resolves the closure as the foreign arch, against an empty dpkg state",
          "[packages]") {
    const auto argv = bb::apt_closure_argv("qemu-system-arm", bb::Arch::Arm64, "/c/empty");
    CHECK(argv.front() == "apt-get");
    CHECK(argv.back() == "qemu-system-arm:arm64");
    for (const std::string option : {"-s", "--no-install-recommends", "Dir::State::status=/c/empty",
                                     "APT::Architecture=arm64"}) {
        CHECK(std::find(argv.begin(), argv.end(), option) != argv.end());
    }
}
