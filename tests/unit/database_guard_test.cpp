// Which files bb::Database agrees to write: a new file or bootbench's own database, at a path
// that is not a symbolic link. Anything else is refused before the first write, so a foreign
// SQLite file keeps its schema and journal mode and a planted link creates nothing.
#include "store/database.h"
#include "store/migrations.h"
#include "test_support.h"
#include "util/error.h"
#include "util/paths.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

TEST_CASE("a foreign SQLite database is refused and left unchanged", "[database]") {
    bb::test::TempDir dir;
    const auto path = dir / "foreign.sqlite";
    {
        SQLite::Database foreign(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        foreign.exec("CREATE TABLE accounts (id INTEGER, name TEXT); "
                     "INSERT INTO accounts VALUES (1, 'x'); PRAGMA user_version = 3;");
    }
    const std::string before = bb::read_file(path);
    const std::string message = bb::test::thrown_message<bb::Error>([&] { bb::Database db(path); });
    CHECK_THAT(message, Catch::Contains(path.string()));
    CHECK_THAT(message, Catch::Contains("not a bootbench database"));
    CHECK_THAT(message, Catch::Contains("accounts"));
    CHECK_THAT(message, Catch::Contains("--db"));
    CHECK(bb::read_file(path) == before); // not migrated, not switched to WAL
    CHECK_FALSE(fs::exists(dir / "foreign.sqlite-wal"));

    // A foreign file with tables but no user_version is refused as well.
    const auto plain = dir / "plain.sqlite";
    {
        SQLite::Database foreign(plain.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        foreign.exec("CREATE TABLE runs (id INTEGER)");
    }
    CHECK_THROWS_AS(bb::Database(plain), bb::Error);
    SQLite::Database check(plain.string(), SQLite::OPEN_READONLY);
    CHECK(check.execAndGet("PRAGMA journal_mode").getString() == "delete");
}

TEST_CASE("an empty file and bootbench's own database are opened for writing", "[database]") {
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "empty.sqlite", "");
    {
        bb::Database db(dir / "empty.sqlite");
        CHECK(db.schema_version() == bb::latest_schema_version(bb::bundled_migrations()));
    }
    bb::Database again(dir / "empty.sqlite"); // now bootbench's
    CHECK(again.sql().execAndGet("PRAGMA journal_mode").getString() == "wal");
}

TEST_CASE("a database path that is a symbolic link is refused for writing",
          "[database][injection]") {
    bb::test::TempDir dir;
    // A dangling link: following it would create the file it names.
    fs::create_symlink(dir / "elsewhere.sqlite", dir / "link.sqlite");
    const std::string message =
        bb::test::thrown_message<bb::Error>([&] { bb::Database db(dir / "link.sqlite"); });
    CHECK_THAT(message, Catch::Contains("symbolic link"));
    CHECK_THAT(message, Catch::Contains("--db"));
    CHECK_FALSE(fs::exists(dir / "elsewhere.sqlite"));

    // A link to a real database is refused for writing and followed for reading.
    { bb::Database real(dir / "real.sqlite"); }
    fs::create_symlink(dir / "real.sqlite", dir / "real-link.sqlite");
    CHECK_THROWS_AS(bb::Database(dir / "real-link.sqlite"), bb::Error);
    bb::Database reader(dir / "real-link.sqlite", bb::Database::Mode::ReadOnly);
    CHECK(reader.schema_version() == bb::latest_schema_version(bb::bundled_migrations()));

    // A linked directory above the file is resolved on purpose.
    fs::create_directory(dir / "data");
    fs::create_directory_symlink(dir / "data", dir / "data-link");
    { bb::Database through(dir / "data-link" / "b.sqlite"); }
    CHECK(fs::is_regular_file(dir / "data" / "b.sqlite"));
}

TEST_CASE("a database path that is not a regular file is refused for writing",
          "[database][injection]") {
    bb::test::TempDir dir;
    fs::create_directory(dir / "dir.sqlite");
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::Database db(dir / "dir.sqlite"); }),
               Catch::Contains("not a regular file"));
}

// Processes that open one new database at the same moment: SQLite takes the lock that switches a
// file to WAL without its busy handler (so "database is locked" at once), and a schema read in two
// snapshots took a half-migrated file for a foreign one. Both were found by
// reliability.concurrent_writers in CI; on the old code about one round in ten failed here.
TEST_CASE("processes opening one new database at once all succeed", "[database]") {
    bb::test::TempDir dir;
    constexpr int k_rounds = 60;
    constexpr int k_processes = 3;
    int failed = 0;
    for (int round = 0; round < k_rounds; ++round) {
        const auto path = dir / fmt::format("race-{}.sqlite", round);
        std::vector<pid_t> children;
        for (int p = 0; p < k_processes; ++p) {
            const pid_t child = fork();
            REQUIRE(child >= 0);
            if (child == 0) {
                try {
                    bb::Database db(path);
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "round %d: %s\n", round, e.what());
                    _exit(1);
                }
                _exit(0);
            }
            children.push_back(child);
        }
        for (const pid_t child : children) {
            int status = -1;
            REQUIRE(waitpid(child, &status, 0) == child);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                ++failed;
            }
        }
    }
    CHECK(failed == 0);
}

// Issue 48 item 10: a schema older than 10 failed every report with SQLite's "no such column:
// b.start_marker". Say which schema it is and how to migrate a copy; leave the file alone.
TEST_CASE("a database older than the readers' schema is named, with the way to migrate it",
          "[database]") {
    bb::test::TempDir dir;
    const auto path = dir / "old.sqlite";
    {
        bb::Database db(path);
        db.sql().exec("PRAGMA user_version = 9");
    }
    const std::string before = bb::read_file(path);
    const std::string message = bb::test::thrown_message<bb::Error>(
        [&] { bb::Database db(path, bb::Database::Mode::ReadOnly); });
    CHECK_THAT(message, Catch::Contains("has schema version 9, older than the 10 this bootbench "
                                        "reads"));
    CHECK_THAT(message, Catch::Contains("--tag migrated"));
    CHECK(bb::read_file(path) == before);
}
