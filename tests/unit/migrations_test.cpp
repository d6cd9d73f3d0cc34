#include "store/database.h"
#include "store/migrations.h"
#include "test_support.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

using bb::Migration;

namespace {
SQLite::Database memory_db() {
    return SQLite::Database(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
}

int user_version(SQLite::Database& db) {
    return db.execAndGet("PRAGMA user_version").getInt();
}

bool table_exists(SQLite::Database& db, const std::string& name) {
    SQLite::Statement query(db, "SELECT count(*) FROM sqlite_master WHERE name = ?");
    query.bind(1, name);
    query.executeStep();
    return query.getColumn(0).getInt() == 1;
}

int schema_objects(SQLite::Database& db) {
    return db.execAndGet("SELECT count(*) FROM sqlite_master").getInt();
}

const std::vector<Migration> k_two{
    {1, "0001_a", "CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1);"},
    // Reads what the first one wrote: only works when applied in order.
    {2, "0002_b", "CREATE TABLE b (y INTEGER); INSERT INTO b SELECT x + 1 FROM a;"},
};
} // namespace

TEST_CASE("bundled migrations are numbered in increasing order", "[migrations]") {
    const auto& migrations = bb::bundled_migrations();
    REQUIRE_FALSE(migrations.empty());
    CHECK(migrations.front().number == 1);
    CHECK(migrations.front().name == "0001_initial");
    for (size_t i = 1; i < migrations.size(); ++i) {
        CHECK(migrations[i].number > migrations[i - 1].number);
    }
    CHECK(bb::latest_schema_version(migrations) == migrations.back().number);
    CHECK(bb::latest_schema_version({}) == 0);
}

TEST_CASE("bundled migrations create the schema and set user_version", "[migrations]") {
    auto db = memory_db();
    bb::migrate(db, bb::bundled_migrations(), ":memory:");
    CHECK(user_version(db) == bb::latest_schema_version(bb::bundled_migrations()));
    for (const char* table : {"hosts", "experiments", "runs", "boots", "boot_events", "metrics",
                              "histograms", "accel_probes", "v_boots", "v_metrics"}) {
        INFO(table);
        CHECK(table_exists(db, table));
    }

    // Running again changes nothing (a second CREATE TABLE would throw).
    const int objects = schema_objects(db);
    REQUIRE_NOTHROW(bb::migrate(db, bb::bundled_migrations(), ":memory:"));
    CHECK(schema_objects(db) == objects);
    CHECK(user_version(db) == bb::latest_schema_version(bb::bundled_migrations()));
}

TEST_CASE("a database newer than the binary is refused", "[migrations]") {
    auto db = memory_db();
    db.exec("PRAGMA user_version = 999");
    const std::string message = bb::test::thrown_message<bb::Error>(
        [&] { bb::migrate(db, bb::bundled_migrations(), "results.sqlite"); });
    CHECK_THAT(message, Catch::Contains("newer"));
    CHECK_THAT(message, Catch::Contains("999"));
    CHECK_THAT(message, Catch::Contains("results.sqlite"));
    CHECK(user_version(db) == 999);
    CHECK_FALSE(table_exists(db, "boots"));
}

TEST_CASE("custom migrations apply in order", "[migrations]") {
    auto db = memory_db();
    bb::migrate(db, k_two, "test");
    CHECK(user_version(db) == 2);
    CHECK(db.execAndGet("SELECT y FROM b").getInt() == 2);
}

TEST_CASE("only migrations newer than user_version run", "[migrations]") {
    auto db = memory_db();
    bb::migrate(db, {k_two[0]}, "test");
    CHECK(user_version(db) == 1);
    CHECK_FALSE(table_exists(db, "b"));
    // Re-applying 0001 would fail on CREATE TABLE a.
    bb::migrate(db, k_two, "test");
    CHECK(user_version(db) == 2);
    CHECK(db.execAndGet("SELECT count(*) FROM a").getInt() == 1);
}

TEST_CASE("a failing migration is rolled back and names itself", "[migrations]") {
    auto db = memory_db();
    const std::vector<Migration> migrations{
        k_two[0],
        {2, "0002_broken", "CREATE TABLE c (z INTEGER); INSERT INTO no_such_table VALUES (1);"},
    };
    const std::string message =
        bb::test::thrown_message<bb::Error>([&] { bb::migrate(db, migrations, "test.sqlite"); });
    CHECK_THAT(message, Catch::Contains("0002_broken"));
    CHECK_THAT(message, Catch::Contains("no_such_table"));
    // 0001 committed; 0002's first statement was undone with the rest of it.
    CHECK(user_version(db) == 1);
    CHECK(table_exists(db, "a"));
    CHECK_FALSE(table_exists(db, "c"));
    // The connection is usable and not left inside a transaction.
    CHECK(db.getHandle() != nullptr);
    REQUIRE_NOTHROW(db.exec("BEGIN IMMEDIATE; ROLLBACK;"));
}

TEST_CASE("bb::Database opens a file in WAL mode with foreign keys on", "[migrations]") {
    bb::test::TempDir dir;
    const auto path = dir / "sub" / "bootbench.sqlite"; // parent directories are created
    {
        bb::Database db(path);
        CHECK(db.path() == path);
        CHECK(db.sql().execAndGet("PRAGMA journal_mode").getString() == "wal");
        CHECK(db.sql().execAndGet("PRAGMA foreign_keys").getInt() == 1);
        CHECK(db.schema_version() == bb::latest_schema_version(bb::bundled_migrations()));
        // Foreign keys are enforced: a run needs a host.
        CHECK_THROWS_AS(db.sql().exec("INSERT INTO runs (host_id, mode, status, command_line, "
                                      "tool_version) VALUES (42, 'boot', 'running', 'x', 'v')"),
                        SQLite::Exception);
    }
    // Reopening is fine, read-only too.
    bb::Database again(path);
    CHECK(again.schema_version() == bb::latest_schema_version(bb::bundled_migrations()));
    bb::Database reader(path, bb::Database::Mode::ReadOnly);
    CHECK(reader.sql().execAndGet("PRAGMA foreign_keys").getInt() == 1);
    CHECK(reader.schema_version() == bb::latest_schema_version(bb::bundled_migrations()));
}

TEST_CASE("bb::Database refuses a newer database and a missing read-only one", "[migrations]") {
    bb::test::TempDir dir;
    const auto path = dir / "new.sqlite";
    {
        bb::Database db(path);
        db.sql().exec("PRAGMA user_version = 999");
    }
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::Database db(path); }),
               Catch::Contains("newer"));
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::Database db(path, bb::Database::Mode::ReadOnly); }),
               Catch::Contains("newer"));

    const auto missing = dir / "missing.sqlite";
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::Database db(missing, bb::Database::Mode::ReadOnly); }),
               Catch::Contains("no database at"));
    CHECK_FALSE(std::filesystem::exists(missing)); // a read must not create it
}
