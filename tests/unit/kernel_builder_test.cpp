// KernelBuilder's locking and tree trust, on a fake kernel "tree": a Makefile with just the
// targets the builder runs (tinyconfig, olddefconfig, Image/bzImage) that writes placeholder
// files and counts its image builds. No compiler runs; gcc and ld are only asked --version.
#include "kernel/kernel_builder.h"
#include "kernel/tree_manifest.h"
#include "test_support.h"
#include "util/error.h"
#include "util/file_lock.h"
#include "util/paths.h"
#include "util/trusted_directory.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using bb::test::TempDir;
using bb::test::thrown_message;
using bb::test::write_bytes;

namespace {

// Recipes start with a tab. `make_count` gets one line per image build.
std::string fake_makefile(const fs::path& make_count) {
    return "tinyconfig:\n"
           "\tmkdir -p $(O) && echo CONFIG_FAKE=y > $(O)/.config\n"
           "olddefconfig:\n"
           "\t@true\n"
           "bzImage Image:\n"
           "\techo built >> " +
           make_count.string() +
           "\n"
           "\tsleep 1\n"
           "\tmkdir -p $(O)/arch/x86/boot $(O)/arch/arm64/boot\n"
           "\techo image > $(O)/arch/x86/boot/bzImage\n"
           "\techo image > $(O)/arch/arm64/boot/Image\n"
           "\techo map > $(O)/System.map\n";
}

struct FakeKernel {
    TempDir dir;
    fs::path source = dir / "linux";
    fs::path cache = dir / "cache";
    fs::path make_count = dir / "make-count";

    FakeKernel() {
        fs::create_directories(source / "kernel");
        write_bytes(source / "Makefile", fake_makefile(make_count));
        write_bytes(source / "Kconfig", "# fake\n");
        write_bytes(source / "kernel" / "sched.c", "int schedule;\n");
    }

    bb::BuildRequest request() const {
        bb::BuildRequest request;
        request.arch = bb::host_arch();
        request.source = bb::parse_source_spec(source.string());
        request.jobs = 1;
        return request;
    }

    int image_builds() const {
        std::ifstream in(make_count);
        int lines = 0;
        for (std::string line; std::getline(in, line);) {
            ++lines;
        }
        return lines;
    }
};

// Collects the builder's notes from any thread.
struct Notes {
    std::mutex mutex;
    std::vector<std::string> lines;

    bb::Progress progress() {
        return {[](const std::string&) {},
                [this](const std::string& line) {
                    const std::lock_guard<std::mutex> guard(mutex);
                    lines.push_back(line);
                }};
    }
    bool contains(const std::string& text) {
        const std::lock_guard<std::mutex> guard(mutex);
        for (const auto& line : lines) {
            if (line.find(text) != std::string::npos) {
                return true;
            }
        }
        return false;
    }
};

fs::path only_tree(const fs::path& cache) {
    std::vector<fs::path> trees;
    for (const auto& entry : fs::directory_iterator(cache / "trees")) {
        trees.push_back(entry.path());
    }
    REQUIRE(trees.size() == 1);
    return trees.front() / "src";
}

} // namespace

TEST_CASE("a cold build touches no tree before it holds the build lock", "[kernel_builder]") {
    FakeKernel kernel;
    Notes notes;
    std::atomic<bool> done{false};
    bb::BuildResult result;
    std::string failure;
    std::thread builder;
    {
        // Another bootbench is building: this one must wait before copying or configuring,
        // or the two delete each other's trees.
        const bb::FileLock held(kernel.cache / "locks" / "kernel-build.lock", "test holder");
        builder = std::thread([&] {
            try {
                result = bb::KernelBuilder(kernel.cache, notes.progress()).build(kernel.request());
            } catch (const std::exception& e) {
                failure = e.what();
            }
            done = true;
        });
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (!notes.contains("waiting for") && !done &&
               std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        REQUIRE(notes.contains("waiting for another kernel build"));
        CHECK_FALSE(fs::exists(kernel.cache / "trees"));
        CHECK_FALSE(fs::exists(kernel.cache / "configs"));
    }
    builder.join();
    REQUIRE(failure.empty());
    CHECK_FALSE(result.cache_hit);
    CHECK(fs::exists(result.image));
    CHECK(kernel.image_builds() == 1);
}

TEST_CASE("two concurrent cold builds of one key both succeed and make it once",
          "[kernel_builder]") {
    FakeKernel kernel;
    Notes notes;
    bb::BuildResult results[2];
    std::string failures[2];
    std::vector<std::thread> builders;
    for (int i = 0; i < 2; ++i) {
        builders.emplace_back([&, i] {
            try {
                results[i] =
                    bb::KernelBuilder(kernel.cache, notes.progress()).build(kernel.request());
            } catch (const std::exception& e) {
                failures[i] = e.what();
            }
        });
    }
    for (auto& builder : builders) {
        builder.join();
    }
    REQUIRE(failures[0].empty());
    REQUIRE(failures[1].empty());
    CHECK(results[0].key == results[1].key);
    CHECK(results[0].cache_hit != results[1].cache_hit);
    CHECK(kernel.image_builds() == 1);
    CHECK(fs::exists(results[0].image));
}

TEST_CASE("a cache hit needs neither the tree nor the lock", "[kernel_builder]") {
    FakeKernel kernel;
    Notes notes;
    const auto first = bb::KernelBuilder(kernel.cache, notes.progress()).build(kernel.request());
    fs::remove_all(kernel.cache / "trees"); // what gc does to an idle tree
    const bb::FileLock held(kernel.cache / "locks" / "kernel-build.lock", "test holder");
    const auto second = bb::KernelBuilder(kernel.cache, notes.progress()).build(kernel.request());
    CHECK(second.cache_hit);
    CHECK(second.key == first.key);
    CHECK_FALSE(fs::exists(kernel.cache / "trees"));
    // The artifacts name the O= directory they came from, for gc.
    CHECK(bb::read_file(first.artifact_dir / bb::k_build_dir_record).rfind("trees/", 0) == 0);
}

TEST_CASE("a planted tree with a completion stamp is made again from the source",
          "[kernel_builder]") {
    FakeKernel kernel;
    Notes notes;
    const auto first = bb::KernelBuilder(kernel.cache, notes.progress()).build(kernel.request());
    const fs::path tree = only_tree(kernel.cache);
    // Someone replaces the tree with their own, stamp and all, and removes the artifacts so
    // that the next build runs make in it.
    const fs::path pwned = kernel.dir / "pwned";
    fs::remove_all(tree);
    fs::create_directories(tree);
    write_bytes(tree / "Makefile",
                "bzImage Image olddefconfig tinyconfig:\n\ttouch " + pwned.string() + "\n");
    write_bytes(tree / "Kconfig", "# planted\n");
    write_bytes(tree / ".bootbench-complete", "planted\n");
    fs::remove_all(first.artifact_dir);

    const auto second = bb::KernelBuilder(kernel.cache, notes.progress()).build(kernel.request());
    CHECK_FALSE(fs::exists(pwned));
    CHECK(second.key == first.key);
    CHECK(kernel.image_builds() == 2);
    CHECK(bb::read_file(tree / "Makefile") == bb::read_file(kernel.source / "Makefile"));
    CHECK(notes.contains("differs from the tree bootbench made"));
}

TEST_CASE("a world-writable cache directory is refused before anything runs in it",
          "[kernel_builder]") {
    FakeKernel kernel;
    Notes notes;
    fs::create_directories(kernel.cache / "trees");
    fs::permissions(kernel.cache / "trees", fs::perms::all);
    const std::string message = thrown_message<bb::Error>(
        [&] { bb::KernelBuilder(kernel.cache, notes.progress()).build(kernel.request()); });
    CHECK_THAT(message, Catch::Contains((kernel.cache / "trees").string()));
    CHECK_THAT(message, Catch::Contains("writable by every user"));
    CHECK_THAT(message, Catch::Contains("chmod go-w"));
    CHECK(kernel.image_builds() == 0);
    CHECK(fs::is_empty(kernel.cache / "trees"));
}

TEST_CASE("directory trust rules: world never, group and other owners not for root",
          "[trusted_directory]") {
    using bb::untrusted_directory_reason;
    CHECK(untrusted_directory_reason(0, S_IFDIR | 0755, 0).empty());
    CHECK(untrusted_directory_reason(1000, S_IFDIR | 0755, 1000).empty());
    CHECK(untrusted_directory_reason(1000, S_IFDIR | 0775, 1000).empty()); // a team's cache
    CHECK(untrusted_directory_reason(0, S_IFDIR | 0775, 0) ==
          "is writable by its group (mode 0775)");
    CHECK(untrusted_directory_reason(1000, S_IFDIR | 0755, 0) == "is owned by uid 1000, not root");
    CHECK(untrusted_directory_reason(0, S_IFDIR | 01777, 0) ==
          "is writable by every user (mode 1777)");
    CHECK(untrusted_directory_reason(1000, S_IFDIR | 0777, 1000) ==
          "is writable by every user (mode 0777)");

    TempDir dir;
    fs::create_directories(dir / "a" / "b");
    bb::require_trusted_path(dir.path(), dir / "a" / "b", geteuid());
    fs::permissions(dir / "a", fs::perms::all);
    const std::string message = thrown_message<bb::Error>(
        [&] { bb::require_trusted_path(dir.path(), dir / "a" / "b", geteuid()); });
    CHECK_THAT(message, Catch::Contains((dir / "a").string()));
    CHECK_THAT(message, Catch::Contains("Fix: "));
}

TEST_CASE("a tree manifest survives a copy and notices any change", "[tree_manifest]") {
    FakeKernel kernel;
    const std::string digest = bb::tree_manifest_digest(kernel.source);
    const fs::path copy = kernel.dir / "copy";
    fs::copy(kernel.source, copy, fs::copy_options::recursive);
    // cp -a keeps times; std::filesystem::copy does not, so bring them over by hand.
    for (const auto& entry : fs::recursive_directory_iterator(kernel.source)) {
        fs::last_write_time(copy / entry.path().lexically_relative(kernel.source),
                            entry.last_write_time());
    }
    CHECK(bb::tree_manifest_digest(copy) == digest);

    write_bytes(copy / "kernel" / "sched.c", "int schedule;\n/* evil */\n");
    CHECK(bb::tree_manifest_digest(copy) != digest);
    fs::remove(copy / "kernel" / "sched.c");
    CHECK(bb::tree_manifest_digest(copy) != digest);
}

// Issue 32, item 14: Debian moved linux-source-6.12 from 6.12.117 to .118 under every shipped
// result; an experiment can pin the version it was measured on.
TEST_CASE("a Debian source can be pinned to a version, and a malformed pin is refused") {
    const auto floating = bb::parse_source_spec("debian:linux-source-6.12");
    CHECK(floating.package == "linux-source-6.12");
    CHECK(floating.version.empty());
    const auto pinned = bb::parse_source_spec("debian:linux-source-6.12=6.12.117-1~deb12u1");
    CHECK(pinned.kind == bb::SourceSpec::Kind::DebianPackage);
    CHECK(pinned.package == "linux-source-6.12");
    CHECK(pinned.version == "6.12.117-1~deb12u1");
    for (const char* bad : {"debian:linux-source-6.12=", "debian:linux-source-6.12=1;rm -rf /",
                            "debian:linux-image-6.12=1"}) {
        INFO(bad);
        CHECK_THROWS_AS(bb::parse_source_spec(bad), bb::Error);
    }
}
