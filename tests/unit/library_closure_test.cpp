#include "guest/library_closure.h"
#include "util/error.h"

#include "test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {
// Packages as maps: which sonames each one holds, and what each file needs. A package's files
// become findable only once the closure asked for it to be unpacked.
class FakeProvider : public bb::LibraryProvider {
  public:
    std::map<std::string, std::vector<std::string>> holds;   // package -> sonames
    std::map<std::string, std::vector<std::string>> depends; // package -> packages
    std::map<std::string, bb::ElfDynamic> elf;               // file path -> dynamic info
    std::set<std::string> unpacked;
    std::vector<std::string> unpack_order;
    int batches = 0;

    std::optional<bb::PackagedFile> find(const std::string& soname) override {
        for (const auto& package : unpacked) {
            for (const auto& held : holds[package]) {
                if (held == soname) {
                    return bb::PackagedFile{"/trees/" + package + "/" + soname, package};
                }
            }
        }
        return std::nullopt;
    }
    std::vector<std::string>
    unpack_candidates(const std::vector<bb::MissingSoname>& missing) override {
        ++batches;
        std::vector<std::string> exhausted;
        for (const auto& item : missing) {
            bool found = false;
            for (const auto& candidate : depends[item.needed_by_package]) {
                if (unpacked.insert(candidate).second) {
                    unpack_order.push_back(candidate);
                    found = true;
                    break;
                }
            }
            if (!found) {
                exhausted.push_back(item.soname);
            }
        }
        return exhausted;
    }
    bb::ElfDynamic read(const fs::path& path) override { return elf[path.string()]; }
};

std::vector<std::string> sonames(const bb::LibraryClosure& closure) {
    std::vector<std::string> names;
    for (const auto& library : closure.libraries) {
        names.push_back(library.soname);
    }
    return names;
}
} // namespace

TEST_CASE("the closure follows DT_NEEDED through the packages a binary depends on", "[closure]") {
    FakeProvider provider;
    provider.unpacked = {"qemu"};
    provider.holds = {{"libc6", {"libc.so.6", "ld-linux-aarch64.so.1"}},
                      {"libglib2.0-0", {"libglib-2.0.so.0"}},
                      {"libpcre2-8-0", {"libpcre2-8.so.0"}},
                      {"unrelated", {"libother.so.1"}}};
    provider.depends = {{"qemu", {"libglib2.0-0", "unrelated", "libc6"}},
                        {"libglib2.0-0", {"libpcre2-8-0", "libc6"}}};
    provider.elf["/usr/bin/qemu"] = {
        0, "/lib/ld-linux-aarch64.so.1", {}, {"libglib-2.0.so.0", "libc.so.6"}};
    provider.elf["/trees/libglib2.0-0/libglib-2.0.so.0"] = {
        0, {}, "libglib-2.0.so.0", {"libpcre2-8.so.0", "libc.so.6"}};
    provider.elf["/trees/libc6/libc.so.6"] = {0, {}, "libc.so.6", {"ld-linux-aarch64.so.1"}};

    const bb::LibraryClosure closure = bb::library_closure({"/usr/bin/qemu", "qemu"}, provider);
    CHECK(closure.interpreter == std::optional<std::string>("/lib/ld-linux-aarch64.so.1"));
    CHECK(sonames(closure) == std::vector<std::string>{"ld-linux-aarch64.so.1", "libglib-2.0.so.0",
                                                       "libc.so.6", "libpcre2-8.so.0"});
    CHECK(closure.packages == std::vector<std::string>{"libc6", "libglib2.0-0", "libpcre2-8-0"});
    // Each soname is looked for once; a library needed twice is not unpacked twice.
    CHECK(closure.libraries[3].needed_by == "libglib-2.0.so.0");
    CHECK(std::count(provider.unpack_order.begin(), provider.unpack_order.end(), "libc6") == 1);
    // What is missing at one level of the tree is fetched together: one batch per level.
    CHECK(provider.batches == 2);
}

TEST_CASE("a soname in no candidate package is an error naming it and who needs it", "[closure]") {
    FakeProvider provider;
    provider.unpacked = {"qemu"};
    provider.depends = {{"qemu", {"libz"}}};
    provider.holds = {{"libz", {"libz.so.1"}}};
    provider.elf["/usr/bin/qemu"] = {0, {}, {}, {"libz.so.1", "libmissing.so.3"}};
    CHECK(bb::test::thrown_message<bb::Error>([&provider] {
              bb::library_closure({"/usr/bin/qemu", "qemu"}, provider);
          }) == "shared library libmissing.so.3 (needed by qemu from qemu) is in none of the "
                "packages qemu depends on; unpack the package that holds it into the nested "
                "cache or fix the package lists (apt-get update)");
}
