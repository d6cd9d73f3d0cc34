#include "report/adhoc_query.h"
#include "store/database.h"
#include "test_support.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <sqlite3.h>
#include <string>
#include <utility>
#include <vector>

namespace {

// A file database with one small table, then reopened read-only as `bootbench query` does.
struct QueryFixture {
    bb::test::TempDir dir;
    std::filesystem::path path = dir / "q.sqlite";

    QueryFixture() {
        SQLite::Database db(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec("CREATE TABLE t (id INTEGER, name TEXT, value REAL, data BLOB);"
                "INSERT INTO t VALUES (1, 'a,b', 1.5, x'0102'), (2, NULL, NULL, NULL);");
    }
    int rows() {
        SQLite::Database db(path.string(), SQLite::OPEN_READONLY);
        return db.execAndGet("SELECT count(*) FROM t").getInt();
    }
};

} // namespace

TEST_CASE("query returns typed rows", "[query]") {
    QueryFixture fixture;
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    const auto result = bb::run_read_only_query(db.sql(), "SELECT * FROM t ORDER BY id");
    CHECK(result.columns == std::vector<std::string>{"id", "name", "value", "data"});
    REQUIRE(result.rows.size() == 2);
    CHECK(result.rows[0][0].kind == bb::QueryCell::Kind::Integer);
    CHECK(result.rows[0][1].text == "a,b");
    CHECK(result.rows[0][2].real == 1.5);
    CHECK(result.rows[0][3].query_text() == "<blob 2 bytes>");
    CHECK(result.rows[1][1].kind == bb::QueryCell::Kind::Null);
}

TEST_CASE("query renders text, csv and json exactly", "[query]") {
    QueryFixture fixture;
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    const auto result =
        bb::run_read_only_query(db.sql(), "SELECT id, name, value FROM t ORDER BY id;");
    CHECK(bb::render_query_result(result, bb::QueryFormat::Text) == "id  name  value\n"
                                                                    " 1  a,b     1.5\n"
                                                                    " 2  NULL   NULL\n"
                                                                    "(2 rows)\n");
    CHECK(bb::render_query_result(result, bb::QueryFormat::Csv) == "id,name,value\n"
                                                                   "1,\"a,b\",1.5\n"
                                                                   "2,,\n");
    CHECK(bb::render_query_result(result, bb::QueryFormat::Json) ==
          "[\n  {\n    \"id\": 1,\n    \"name\": \"a,b\",\n    \"value\": 1.5\n  },\n"
          "  {\n    \"id\": 2,\n    \"name\": null,\n    \"value\": null\n  }\n]\n");
}

TEST_CASE("query refuses every statement that writes", "[query]") {
    QueryFixture fixture;
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    for (const char* sql :
         {"INSERT INTO t VALUES (3, 'c', 0, NULL)", "UPDATE t SET name = 'x'", "DELETE FROM t",
          "DROP TABLE t", "CREATE TABLE u (x)", "  delete from t where id = 1",
          "WITH x AS (SELECT 1) DELETE FROM t", "PRAGMA user_version = 7"}) {
        INFO(sql);
        const std::string message =
            bb::test::thrown_message<bb::Error>([&] { bb::run_read_only_query(db.sql(), sql); });
        CHECK_THAT(message, Catch::Contains("refused"));
        CHECK_THAT(message, Catch::Contains("only reads"));
    }
    CHECK(fixture.rows() == 2);
}

TEST_CASE("query refuses a second statement and names SQL errors", "[query]") {
    QueryFixture fixture;
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::run_read_only_query(db.sql(), "SELECT 1; DROP TABLE t"); }),
               Catch::Contains("one statement at a time"));
    CHECK_THAT(
        bb::test::thrown_message<bb::Error>([&] { bb::run_read_only_query(db.sql(), "SELEC 1"); }),
        Catch::Contains("syntax error"));
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::run_read_only_query(db.sql(), "SELECT * FROM nope"); }),
               Catch::Contains("no such table: nope"));
    CHECK_THAT(
        bb::test::thrown_message<bb::Error>([&] { bb::run_read_only_query(db.sql(), " ;"); }),
        Catch::Contains("no SQL"));
    // A trailing comment or semicolon is not a second statement.
    CHECK(bb::run_read_only_query(db.sql(), "SELECT 1; -- done").rows.size() == 1);
    CHECK(fixture.rows() == 2);
}

TEST_CASE("query_only holds even on a read-write connection", "[query]") {
    QueryFixture fixture;
    SQLite::Database db(fixture.path.string(), SQLite::OPEN_READWRITE);
    CHECK_THROWS_AS(bb::run_read_only_query(db, "INSERT INTO t VALUES (9, 'z', 0, NULL)"),
                    bb::Error);
    CHECK_THROWS(db.exec("INSERT INTO t VALUES (9, 'z', 0, NULL)")); // PRAGMA query_only
    CHECK(fixture.rows() == 2);
}

TEST_CASE("query refuses attaching, pragmas, transactions and file functions",
          "[query][injection]") {
    QueryFixture fixture;
    const auto other = fixture.dir / "other.sqlite";
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"ATTACH DATABASE '" + other.string() + "' AS o", "ATTACH is not allowed"},
        {"DETACH DATABASE main", "DETACH is not allowed"},
        {"PRAGMA query_only = OFF", "PRAGMA query_only is not allowed"},
        {"PRAGMA writable_schema = ON", "PRAGMA writable_schema is not allowed"},
        {"PRAGMA journal_mode = DELETE", "PRAGMA journal_mode is not allowed"},
        {"BEGIN", "BEGIN is not allowed"},
        {"BEGIN IMMEDIATE", "BEGIN is not allowed"},
        {"COMMIT", "COMMIT is not allowed"},
        {"SAVEPOINT s", "SAVEPOINT is not allowed"},
        {"SELECT load_extension('/tmp/evil.so')", "the function load_extension() is not allowed"},
        {"INSERT INTO t VALUES (3, 'c', 0, NULL)", "INSERT is not allowed"},
        {"WITH x AS (SELECT 1) DELETE FROM t", "DELETE is not allowed"},
        {"CREATE TEMP TABLE u (x)", "writing the schema is not allowed"},
        {"DROP TABLE t", "writing the schema is not allowed"},
    };
    for (const auto& [sql, expected] : cases) {
        INFO(sql);
        const std::string message =
            bb::test::thrown_message<bb::Error>([&] { bb::run_read_only_query(db.sql(), sql); });
        CHECK_THAT(message, Catch::StartsWith("query refused: " + expected));
        CHECK_THAT(message, Catch::Contains("only reads"));
    }
    // Nothing took effect: the connection is still query-only, nothing was attached or begun.
    CHECK(db.sql().execAndGet("PRAGMA query_only").getInt() == 1);
    CHECK(db.sql().execAndGet("PRAGMA writable_schema").getInt() == 0);
    CHECK(db.sql().execAndGet("SELECT count(*) FROM pragma_database_list").getInt() == 1);
    CHECK(sqlite3_get_autocommit(db.sql().getHandle()) == 1);
    CHECK_FALSE(std::filesystem::exists(other));
    CHECK(fixture.rows() == 2);
    // A refused second statement is still reported as a second statement.
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::run_read_only_query(db.sql(), "SELECT 1; ATTACH 'x' AS x"); }),
               Catch::Contains("one statement at a time"));
}

TEST_CASE("query still allows reading the schema", "[query]") {
    QueryFixture fixture;
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    CHECK(bb::run_read_only_query(db.sql(), "PRAGMA table_info(t)").rows.size() == 4);
    // The table-valued form declares a virtual table (an UPDATE of sqlite_schema to the
    // authorizer): refused, and said so.
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] {
                   bb::run_read_only_query(db.sql(), "SELECT name FROM pragma_table_info('t')");
               }),
               Catch::StartsWith("query refused: writing the schema is not allowed"));
    CHECK(bb::run_read_only_query(db.sql(), "SELECT name FROM sqlite_schema").rows.size() == 1);
    CHECK(bb::run_read_only_query(db.sql(), "EXPLAIN SELECT * FROM t").rows.size() > 0);
    // The sandbox is gone afterwards: bootbench's own statements on the connection still work.
    CHECK(db.sql().execAndGet("PRAGMA user_version").getInt() == 0);
}

TEST_CASE("a runaway query is stopped by the time limit", "[query][injection]") {
    QueryFixture fixture;
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    bb::QueryLimits limits;
    limits.time = std::chrono::milliseconds(200);
    const auto started = std::chrono::steady_clock::now();
    const std::string message = bb::test::thrown_message<bb::Error>([&] {
        bb::run_read_only_query(db.sql(),
                                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                "SELECT count(*) FROM c",
                                limits);
    });
    CHECK_THAT(message, Catch::StartsWith("query stopped after 0.2 s"));
    CHECK_THAT(message, Catch::Contains("--time-limit"));
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_CASE("a query that needs too much memory is stopped", "[query][injection]") {
    QueryFixture fixture;
    bb::Database db(fixture.path, bb::Database::Mode::ReadOnly);
    bb::QueryLimits limits;
    limits.memory_bytes = std::int64_t{16} << 20;
    limits.time = std::chrono::seconds(30); // a failure here must not hang the suite
    // SQLite's own heap: a string a recursive CTE grows to ~70 MB, one big blob.
    for (const char* sql : {"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                            "LIMIT 10000000) SELECT length(group_concat(x)) FROM c",
                            "SELECT length(randomblob(100000000))"}) {
        INFO(sql);
        const std::string message = bb::test::thrown_message<bb::Error>(
            [&] { bb::run_read_only_query(db.sql(), sql, limits); });
        CHECK_THAT(message, Catch::StartsWith("query needs more than 16 MiB"));
        CHECK_THAT(message, Catch::Contains("--memory-limit"));
    }
    // The rows bootbench keeps until it prints them count as well.
    const std::string message = bb::test::thrown_message<bb::Error>([&] {
        bb::run_read_only_query(db.sql(),
                                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                "SELECT x, printf('%.1000c', 'x') FROM c",
                                limits);
    });
    CHECK_THAT(message, Catch::StartsWith("query needs more than 16 MiB"));
    // The process's heap limit is restored afterwards.
    CHECK(sqlite3_hard_heap_limit64(-1) == 0);
    CHECK(bb::run_read_only_query(db.sql(), "SELECT length(randomblob(100000000))").rows.size() ==
          1);
}
