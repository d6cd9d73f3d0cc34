// Where bootbench writes files it is told to write (`-o`, `--junit`, lock files): a bare name is
// the current directory, and nothing that is not a regular file is replaced or written through
// (bootbench runs as root on shared build hosts).
#include "test_support.h"
#include "util/error.h"
#include "util/file_lock.h"
#include "util/paths.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// Runs a test inside `dir` and goes back to where it was, however the test ends.
class InDirectory {
  public:
    explicit InDirectory(const fs::path& dir) : m_previous(fs::current_path()) {
        fs::current_path(dir);
    }
    ~InDirectory() {
        std::error_code ignored;
        fs::current_path(m_previous, ignored);
    }
    InDirectory(const InDirectory&) = delete;
    InDirectory& operator=(const InDirectory&) = delete;

  private:
    fs::path m_previous;
};

bool is_still_fifo(const fs::path& path) {
    return fs::symlink_status(path).type() == fs::file_type::fifo;
}

} // namespace

TEST_CASE("an atomic write to a bare file name goes to the current directory", "[paths]") {
    bb::test::TempDir dir;
    {
        InDirectory here(dir.path());
        bb::write_file_atomically("phase.html", "<html></html>");
    }
    CHECK(bb::read_file(dir / "phase.html") == "<html></html>");
    // Parent directories are still created for a path that has them.
    bb::write_file_atomically(dir / "a" / "b" / "out.xml", "x");
    CHECK(bb::read_file(dir / "a" / "b" / "out.xml") == "x");
}

TEST_CASE("an atomic write refuses a target that is not a regular file", "[paths][injection]") {
    bb::test::TempDir dir;
    const auto fifo = dir / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THAT(
        bb::test::thrown_message<bb::Error>([&] { bb::write_file_atomically(fifo, "report"); }),
        Catch::Contains("not a regular file"));
    CHECK(is_still_fifo(fifo)); // not replaced by a file

    bb::test::write_bytes(dir / "victim", "precious");
    fs::create_symlink(dir / "victim", dir / "link.html");
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::write_file_atomically(dir / "link.html", "report"); }),
               Catch::Contains("symbolic link"));
    CHECK(fs::is_symlink(dir / "link.html"));
    CHECK(bb::read_file(dir / "victim") == "precious");

    fs::create_directory(dir / "directory");
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::write_file_atomically(dir / "directory", "report"); }),
               Catch::Contains("a directory"));
    CHECK(fs::is_empty(dir / "directory"));

    // A regular file is replaced as before.
    bb::test::write_bytes(dir / "old.html", "old");
    bb::write_file_atomically(dir / "old.html", "new");
    CHECK(bb::read_file(dir / "old.html") == "new");
}

TEST_CASE("an atomic write never follows a link planted at its temporary name",
          "[paths][injection]") {
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "victim", "precious");
    const fs::path temp = (dir / "out.html").string() + ".tmp." + std::to_string(getpid());
    fs::create_symlink(dir / "victim", temp);
    bb::write_file_atomically(dir / "out.html", "report");
    CHECK(bb::read_file(dir / "victim") == "precious");
    CHECK(bb::read_file(dir / "out.html") == "report");
    CHECK_FALSE(fs::exists(fs::symlink_status(temp)));
}

TEST_CASE("a lock file that is a link or not a regular file is refused", "[paths][injection]") {
    bb::test::TempDir dir;
    const auto victim = dir / "victim";
    bb::test::write_bytes(victim, "precious");
    fs::create_symlink(victim, dir / "held.lock");
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::FileLock lock(dir / "held.lock", "a test"); }),
               Catch::Contains("symbolic link"));
    CHECK(bb::read_file(victim) == "precious"); // no pid written into it

    fs::create_symlink(dir / "absent", dir / "dangling.lock");
    CHECK_THROWS_AS(bb::FileLock(dir / "dangling.lock", "a test"), bb::Error);
    CHECK_FALSE(fs::exists(dir / "absent")); // the link's target was not created

    const auto fifo = dir / "fifo.lock";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::FileLock lock(fifo, "a test"); }),
               Catch::Contains("not a regular file"));

    // An ordinary lock file still works, and is reused.
    { bb::FileLock lock(dir / "ok.lock", "a test"); }
    bb::FileLock again(dir / "ok.lock", "a test");
    CHECK(bb::read_file(dir / "ok.lock") == std::to_string(getpid()));
}
