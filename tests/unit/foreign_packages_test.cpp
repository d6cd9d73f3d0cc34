#include "guest/apt_depends.h"
#include "guest/soname_providers.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using Names = std::vector<std::string>;

TEST_CASE("apt-cache depends output: Depends and PreDepends, virtuals by provider", "[packages]") {
    const std::string output = R"(qemu-system-arm:arm64
  Depends: libaio1:arm64
  PreDepends: libc6:arm64
 |Depends: libgcc-s1:arm64
  Depends: libgcc1:arm64
  Depends: <qemu-system-data:arm64>
    qemu-system-data
  Breaks: <qemu-kvm:arm64>
    qemu-system-x86
  Recommends: qemu-utils:arm64
  Recommends: <ipxe-qemu:arm64>
    ipxe-qemu
  Depends: libaio1:arm64
)";
    CHECK(bb::parse_apt_depends(output) == Names{"libaio1:arm64", "libc6:arm64", "libgcc-s1:arm64",
                                                 "libgcc1:arm64", "qemu-system-data"});
    CHECK(bb::parse_apt_depends("").empty());
}

TEST_CASE("library packages are tried in the order Debian's naming suggests", "[packages]") {
    const Names depends{"libc6:arm64",           "zlib1g:arm64",       "libzstd1:arm64",
                        "libjpeg62-turbo:arm64", "libglib2.0-0:arm64", "libpixman-1-0:arm64",
                        "libgcc-s1:arm64"};
    CHECK(bb::rank_soname_providers("libglib-2.0.so.0", depends).front() == "libglib2.0-0:arm64");
    CHECK(bb::rank_soname_providers("libpixman-1.so.0", depends).front() == "libpixman-1-0:arm64");
    CHECK(bb::rank_soname_providers("libjpeg.so.62", depends).front() == "libjpeg62-turbo:arm64");
    CHECK(bb::rank_soname_providers("libgcc_s.so.1", depends).front() == "libgcc-s1:arm64");
    CHECK(bb::rank_soname_providers("libz.so.1", depends).front() == "zlib1g:arm64");
    // No rule knows where the loader lives: every candidate stays, in apt's order.
    CHECK(bb::rank_soname_providers("ld-linux-aarch64.so.1", depends) == depends);
}

TEST_CASE("only packages named like a soname count as its likely providers", "[packages]") {
    CHECK(bb::named_like_provider("libz.so.1", "zlib1g"));
    CHECK(bb::named_like_provider("libglib-2.0.so.0", "libglib2.0-0:arm64"));
    CHECK_FALSE(bb::named_like_provider("ld-linux-aarch64.so.1", "libc6"));
    CHECK_FALSE(bb::named_like_provider("libfdt.so.1", "qemu-system-data"));
}
