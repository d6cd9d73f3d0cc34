// Issue 48 item 1: the one check every output path of every command passes
// (util/output_guard.h). On 0376977 history --html, report -o, compare --junit and repro -o
// replaced the database they read.
#include "test_support.h"
#include "util/error.h"
#include "util/output_guard.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using bb::test::thrown_message;

namespace {
void write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}
std::string refusal(const fs::path& out, const fs::path& db, bool force) {
    return thrown_message<bb::Error>([&] { bb::check_command_output(out, db, force); });
}
} // namespace

TEST_CASE("an output path is never the database, a link to it or a file of its", "[output]") {
    bb::test::TempDir dir;
    const fs::path db = dir.path() / "results.sqlite";
    write(db, "SQLite format 3");
    fs::create_hard_link(db, dir.path() / "hard.sqlite");
    fs::create_symlink(db, dir.path() / "soft.sqlite");
    fs::create_directory_symlink(dir.path(), dir.path() / "same-dir");
    const std::string refused = "the database this command reads";
    for (const bool force : {false, true}) {
        CAPTURE(force);
        CHECK_THAT(refusal(db, db, force), Catch::Contains(refused));
        CHECK_THAT(refusal(dir.path() / "hard.sqlite", db, force), Catch::Contains(refused));
        CHECK_THAT(refusal(dir.path() / "soft.sqlite", db, force), Catch::Contains(refused));
        CHECK_THAT(refusal(dir.path() / "same-dir" / "results.sqlite", db, force),
                   Catch::Contains(refused));
        // -wal and -shm before they exist (the reader may create them) and after.
        CHECK_THAT(refusal(dir.path() / "results.sqlite-wal", db, force),
                   Catch::Contains(refused) && Catch::Contains("(results.sqlite-wal)"));
        write(dir.path() / "results.sqlite-shm", "");
        CHECK_THAT(refusal(dir.path() / "results.sqlite-shm", db, force), Catch::Contains(refused));
        CHECK_THAT(refusal(dir.path() / "results.sqlite-journal", db, force),
                   Catch::Contains(refused));
    }
    // A relative spelling of the database, from its directory.
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    CHECK_THAT(refusal("results.sqlite", db, true), Catch::Contains(refused));
    fs::current_path(before);
}

TEST_CASE("an existing output file is replaced only with force", "[output]") {
    bb::test::TempDir dir;
    const fs::path db = dir.path() / "results.sqlite";
    write(db, "SQLite format 3");
    const fs::path page = dir.path() / "page.html";
    CHECK_NOTHROW(bb::check_command_output(page, db, false)); // a new file
    write(page, "someone's page");
    CHECK_THAT(refusal(page, db, false),
               Catch::Contains("exists: bootbench does not replace a file without --force"));
    CHECK_NOTHROW(bb::check_command_output(page, db, true));
    // A link or a device is never replaced, whatever --force says.
    fs::create_symlink(page, dir.path() / "link.html");
    CHECK_THAT(refusal(dir.path() / "link.html", db, true), Catch::Contains("a symbolic link"));
    CHECK_THAT(refusal("/dev/null", db, true), Catch::Contains("not a regular file"));
}
