#include "guest/library_closure.h"
#include "test_support.h"
#include "util/error.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {
// Unpacked packages as maps: which sonames each one holds, and what each file needs.
class FakeProvider : public bb::LibraryProvider {
  public:
    std::map<std::string, std::vector<std::string>> holds; // package -> sonames
    std::map<std::string, bb::ElfDynamic> elf;             // file path -> dynamic info
    std::vector<std::string> looked_for;

    std::optional<bb::PackagedFile> find(const std::string& soname) override {
        looked_for.push_back(soname);
        for (const auto& [package, sonames] : holds) {
            if (std::find(sonames.begin(), sonames.end(), soname) != sonames.end()) {
                return bb::PackagedFile{"/trees/" + package + "/" + soname, package};
            }
        }
        return std::nullopt;
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

TEST_CASE("the closure follows DT_NEEDED through the unpacked packages", "[closure]") {
    FakeProvider provider;
    provider.holds = {{"libc6", {"libc.so.6", "ld-linux-aarch64.so.1"}},
                      {"libglib2.0-0", {"libglib-2.0.so.0"}},
                      {"libpcre2-8-0", {"libpcre2-8.so.0"}},
                      {"unrelated", {"libother.so.1"}}};
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
    CHECK(closure.libraries[3].needed_by == "libglib-2.0.so.0");
    // Each soname is looked for once, however many files need it; what nothing needs is not
    // taken (libother.so.1).
    CHECK(provider.looked_for.size() == 4);
}

TEST_CASE("a soname apt's closure lacks is an error naming it and who needs it", "[closure]") {
    FakeProvider provider;
    provider.holds = {{"libz", {"libz.so.1"}}};
    provider.elf["/usr/bin/qemu"] = {0, {}, {}, {"libz.so.1", "libmissing.so.3"}};
    CHECK(bb::test::thrown_message<bb::Error>([&provider] {
              bb::library_closure({"/usr/bin/qemu", "qemu"}, provider);
          }) == "shared library libmissing.so.3 (needed by qemu from qemu) is in none of the "
                "packages apt resolved for the closure; fix the package lists (apt-get update) "
                "or delete the nested cache");
}
