// A patched variant's O= directory started from its unpacked build (kernel/build_dir_seed.h),
// on a small fake O= directory: what is rewritten, what keeps its time, what is refused.
// tests/integration/repro.sh checks on a real kernel that a seeded build's image is
// bit-identical to a build from scratch.
#include "kernel/build_dir_seed.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <filesystem>

namespace fs = std::filesystem;
using bb::test::read_text;
using bb::test::TempDir;
using bb::test::write_bytes;

namespace {
struct FakeCache {
    TempDir dir;
    bb::BuildDirSeed seed{dir / "trees/aaaa/src", dir / "trees/aaaa/build-1111"};
    fs::path tree = dir / "trees/bbbb/src";
    fs::path build_dir = dir / "trees/bbbb/build-2222";
    fs::path image = "arch/arm64/boot/Image";
    fs::file_time_type old_time = fs::file_time_type::clock::now() - std::chrono::hours(24);

    FakeCache() {
        fs::create_directories(seed.tree);
        fs::create_directories(tree);
        fs::create_directories(seed.build_dir / "kernel/rcu");
        fs::create_directories(seed.build_dir / image.parent_path());
        write_bytes(seed.build_dir / ".config", "CONFIG_X=y\n");
        write_bytes(seed.build_dir / image, "image");
        const std::string seed_src = seed.tree.string();
        write_bytes(seed.build_dir / "kernel/rcu/.srcutree.o.cmd",
                    "savedcmd_kernel/rcu/srcutree.o := gcc -I" + seed_src +
                        "/include\n"
                        "source_kernel/rcu/srcutree.o := " +
                        seed_src +
                        "/kernel/rcu/srcutree.c\n"
                        "objtree := " +
                        seed.build_dir.string() + "\n");
        write_bytes(seed.build_dir / "kernel/rcu/srcutree.o", std::string("\x7f"
                                                                          "ELF\0",
                                                                          5) +
                                                                  seed_src);
        fs::create_symlink(seed.tree, seed.build_dir / "source");
        fs::last_write_time(seed.build_dir / "kernel/rcu/.srcutree.o.cmd", old_time);
    }
};
} // namespace

TEST_CASE("a seeded O= directory names the variant's tree and keeps every file's time") {
    FakeCache c;
    REQUIRE(bb::seed_build_dir(c.seed, c.tree, c.build_dir, c.image, "CONFIG_X=y\n"));
    const std::string cmd = read_text(c.build_dir / "kernel/rcu/.srcutree.o.cmd");
    CHECK(cmd.find(c.seed.tree.string()) == std::string::npos);
    CHECK(cmd.find(c.seed.build_dir.string()) == std::string::npos);
    CHECK(cmd.find("-I" + c.tree.string() + "/include") != std::string::npos);
    CHECK(cmd.find("objtree := " + c.build_dir.string()) != std::string::npos);
    CHECK(fs::last_write_time(c.build_dir / "kernel/rcu/.srcutree.o.cmd") == c.old_time);
    CHECK(fs::read_symlink(c.build_dir / "source") == c.tree);
    // Objects are copied as they are (the seed's paths in them change nothing make compares).
    CHECK(read_text(c.build_dir / "kernel/rcu/srcutree.o") ==
          read_text(c.seed.build_dir / "kernel/rcu/srcutree.o"));
    // The seed itself is untouched.
    CHECK(read_text(c.seed.build_dir / "kernel/rcu/.srcutree.o.cmd").find(c.seed.tree.string()) !=
          std::string::npos);
    CHECK(fs::read_symlink(c.seed.build_dir / "source") == c.seed.tree);
}

TEST_CASE("no seed is used when its configuration differs, it has no image, or the variant "
          "already has one") {
    FakeCache c;
    CHECK_FALSE(bb::seed_build_dir(c.seed, c.tree, c.build_dir, c.image, "CONFIG_X=n\n"));
    CHECK_FALSE(fs::exists(c.build_dir));

    fs::create_directories(c.build_dir / c.image.parent_path());
    write_bytes(c.build_dir / c.image, "the variant's own image");
    CHECK_FALSE(bb::seed_build_dir(c.seed, c.tree, c.build_dir, c.image, "CONFIG_X=y\n"));
    CHECK(read_text(c.build_dir / c.image) == "the variant's own image");

    fs::remove_all(c.build_dir);
    fs::remove(c.seed.build_dir / c.image);
    CHECK_FALSE(bb::seed_build_dir(c.seed, c.tree, c.build_dir, c.image, "CONFIG_X=y\n"));
    CHECK_FALSE(fs::exists(c.build_dir));
}

TEST_CASE("the files the patches wrote become newer than the seed's objects, even when the "
          "patched tree is older than the seed's build") {
    // (KernelBuilder::build calls make_patched_files_newer before every patched build, seeded
    // or not: an O= directory left by a build that recompiled nothing needs it as much.)
    FakeCache c;
    // A pristine file hard-linked into both trees, and a file the patch rewrote in the variant's
    // tree — both a day old, older than every object of the seed (the case that once made every
    // seeded variant of a cache its seed's image).
    fs::create_directories(c.dir / "pristine/kernel/rcu");
    write_bytes(c.dir / "pristine/kernel/rcu/tree.c", "unchanged");
    for (const auto& root : {c.seed.tree, c.tree}) {
        fs::create_directories(root / "kernel/rcu");
        fs::create_hard_link(c.dir / "pristine/kernel/rcu/tree.c", root / "kernel/rcu/tree.c");
    }
    write_bytes(c.seed.tree / "kernel/rcu/srcutree.c", "as released");
    write_bytes(c.tree / "kernel/rcu/srcutree.c", "as patched");
    for (const auto& file :
         {c.dir / "pristine/kernel/rcu/tree.c", c.tree / "kernel/rcu/srcutree.c"}) {
        fs::last_write_time(file, c.old_time);
    }
    CHECK(bb::files_differing_from(c.tree, c.seed.tree) ==
          std::vector<fs::path>{"kernel/rcu/srcutree.c"});

    REQUIRE(bb::seed_build_dir(c.seed, c.tree, c.build_dir, c.image, "CONFIG_X=y\n"));
    bb::make_patched_files_newer(c.tree, c.seed.tree);
    CHECK(fs::last_write_time(c.tree / "kernel/rcu/srcutree.c") >
          fs::last_write_time(c.build_dir / "kernel/rcu/srcutree.o"));
    CHECK(fs::last_write_time(c.tree / "kernel/rcu/tree.c") == c.old_time); // not a patched file
}

TEST_CASE("an object of a patched source that make did not write again is stale, while headers, "
          "sources not built here and rewritten objects are not") {
    FakeCache c;
    REQUIRE(bb::seed_build_dir(c.seed, c.tree, c.build_dir, c.image, "CONFIG_X=y\n"));
    const auto make_started = fs::file_time_type::clock::now();
    fs::last_write_time(c.build_dir / "kernel/rcu/srcutree.o", c.old_time);
    const std::vector<fs::path> patched{"kernel/rcu/srcutree.c", "include/linux/srcu.h",
                                        "drivers/not/configured.c"};
    // make recompiled nothing: the one object that exists is older than the build.
    CHECK(bb::stale_patched_objects(c.build_dir, patched, make_started) ==
          std::vector<fs::path>{"kernel/rcu/srcutree.o"});
    // make recompiled it (a comment or a pr_debug() gives the same object and image).
    fs::last_write_time(c.build_dir / "kernel/rcu/srcutree.o", make_started);
    CHECK(bb::stale_patched_objects(c.build_dir, patched, make_started).empty());
}
