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

    // A command file of the seed's O= directory and its object; SRC stands for the seed's tree.
    void seed_command_file(const fs::path& relative, std::string text) {
        for (size_t at = text.find("SRC"); at != std::string::npos; at = text.find("SRC")) {
            text.replace(at, 3, seed.tree.string());
        }
        fs::create_directories(seed.build_dir / relative.parent_path());
        write_bytes(seed.build_dir / relative, text);
        const std::string name = relative.filename().string();
        write_bytes(seed.build_dir / relative.parent_path() / name.substr(1, name.size() - 5),
                    "object");
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

TEST_CASE("a source unpacked again (new inodes, the archive's times) leaves only the patched "
          "files patched") {
    // The seed's tree was linked from an earlier unpack of the same source; the variant's from
    // the new one. By inode alone every file differed, and touching them all through their
    // links made every tree of the cache recompile everything.
    FakeCache c;
    for (const auto& root : {c.seed.tree, c.tree}) {
        fs::create_directories(root / "kernel/rcu");
        write_bytes(root / "kernel/rcu/tree.c", "unchanged");
        write_bytes(root / "kernel/rcu/srcutree.c", "as released");
        fs::last_write_time(root / "kernel/rcu/tree.c", c.old_time);
        fs::last_write_time(root / "kernel/rcu/srcutree.c", c.old_time);
    }
    write_bytes(c.tree / "kernel/rcu/srcutree.c", "as patched!"); // same size, written now
    CHECK(bb::files_differing_from(c.tree, c.seed.tree) ==
          std::vector<fs::path>{"kernel/rcu/srcutree.c"});
    bb::make_patched_files_newer(c.tree, c.seed.tree);
    CHECK(fs::last_write_time(c.tree / "kernel/rcu/tree.c") == c.old_time);
    // A file the seed does not have is the patch's too.
    write_bytes(c.tree / "kernel/rcu/new.c", "added");
    CHECK(bb::files_differing_from(c.tree, c.seed.tree).size() == 2);
}

TEST_CASE("the objects kbuild built from a patched file are stale until make writes them again, "
          "whatever their name") {
    FakeCache c;
    // kbuild lists an object's source and every header it read in .NAME.o.cmd: here a .c file
    // built into an object of another name (kernel/sched/build_policy.o includes rt.c).
    c.seed_command_file("kernel/sched/.build_policy.o.cmd",
                        "source_kernel/sched/build_policy.o := SRC/kernel/sched/build_policy.c\n"
                        "deps_kernel/sched/build_policy.o := \\\n"
                        "  SRC/kernel/sched/rt.c \\\n"
                        "  SRC/include/linux/srcu.h \\\n");
    REQUIRE(bb::seed_build_dir(c.seed, c.tree, c.build_dir, c.image, "CONFIG_X=y\n"));
    const auto make_started = bb::filesystem_now(c.build_dir);
    for (const auto* object : {"kernel/rcu/srcutree.o", "kernel/sched/build_policy.o"}) {
        fs::last_write_time(c.build_dir / object, c.old_time);
    }
    // make recompiled nothing: every object built from a patched file is stale, found through
    // the command files (a header, a .c included by another, a source named like its object).
    const auto before = bb::patched_objects(c.build_dir, c.tree,
                                            {"kernel/sched/rt.c", "kernel/rcu/srcutree.c",
                                             "drivers/not/configured.c", "kernel/rcu/srcutree.cpp"},
                                            make_started);
    CHECK(before.stale ==
          std::vector<fs::path>{"kernel/rcu/srcutree.o", "kernel/sched/build_policy.o"});
    CHECK(before.rewritten.empty());
    CHECK(bb::patched_objects(c.build_dir, c.tree, {"include/linux/srcu.h"}, make_started).stale ==
          std::vector<fs::path>{"kernel/sched/build_policy.o"});
    // make recompiled them (a comment or a pr_debug() gives the same objects and image).
    for (const auto* object : {"kernel/rcu/srcutree.o", "kernel/sched/build_policy.o"}) {
        fs::last_write_time(c.build_dir / object, bb::filesystem_now(c.build_dir));
    }
    const auto after = bb::patched_objects(
        c.build_dir, c.tree, {"kernel/sched/rt.c", "kernel/rcu/srcutree.c"}, make_started);
    CHECK(after.stale.empty());
    CHECK(after.rewritten.size() == 2);
    // Patches that no object is built from: nothing stale, nothing rewritten.
    const auto none =
        bb::patched_objects(c.build_dir, c.tree, {"drivers/not/configured.c"}, make_started);
    CHECK(none.stale.empty());
    CHECK(none.rewritten.empty());
}
