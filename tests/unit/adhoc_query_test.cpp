#include "report/adhoc_query.h"
#include "store/database.h"
#include "test_support.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <string>

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
    CHECK(result.rows[0][3].display() == "<blob 2 bytes>");
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
