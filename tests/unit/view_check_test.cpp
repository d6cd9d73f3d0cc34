// Issue 32, item 5: a database whose own view tripled one variant's times got "B slower,
// p 0.000666" from the verdict. Reading commands accept only bootbench's own view definitions.
#include "store/database.h"
#include "store/view_check.h"
#include "test_support.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>

using bb::test::TempDir;

TEST_CASE("a database whose views are bootbench's own is read, an edited or added view is not",
          "[injection]") {
    TempDir dir;
    const auto path = dir / "results.sqlite";
    { bb::Database created(path); }
    { bb::Database reader(path, bb::Database::Mode::ReadOnly); }
    const auto views = bb::expected_views(bb::bundled_migrations(), 1000);
    CHECK(views.count("v_samples") == 1);
    CHECK(views.count("v_histograms") == 1);

    SECTION("a redefined v_samples") {
        SQLite::Database raw(path.string(), SQLite::OPEN_READWRITE);
        CHECK_NOTHROW(raw.exec("DROP VIEW v_samples"));
        CHECK_NOTHROW(raw.exec(
            "CREATE VIEW v_samples AS SELECT id, 3 * boot_seconds AS boot_seconds FROM boots"));
    }
    SECTION("a view bootbench never defines") {
        SQLite::Database raw(path.string(), SQLite::OPEN_READWRITE);
        CHECK_NOTHROW(raw.exec("CREATE VIEW v_extra AS WITH RECURSIVE r(x) AS (SELECT 1 UNION "
                               "ALL SELECT x + 1 FROM r) SELECT x FROM r"));
    }
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::Database reader(path, bb::Database::Mode::ReadOnly); }),
               Catch::Contains("is not bootbench's definition"));
}
