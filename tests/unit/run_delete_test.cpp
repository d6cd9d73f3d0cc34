// `bootbench runs --delete` (store/run_list.h), issue 48 item 2: a signal rolls the delete back,
// a run still marked running is not deleted without force, damage that predates the delete is
// named and not blamed on the run; labelling a run that is gone says so.
#include "store/run_labels.h"
#include "store/run_list.h"
#include "test_store.h"
#include "test_support.h"
#include "util/error.h"
#include "util/interrupt.h"

#include <catch2/catch.hpp>

namespace {
long long count(bb::Database& db, const std::string& sql) {
    return db.sql().execAndGet(sql).getInt64();
}

// Clears the interrupt flag however the test ends.
struct InterruptReset {
    ~InterruptReset() { bb::reset_interrupted(); }
};
} // namespace

TEST_CASE("a delete interrupted by a signal rolls back and says so", "[runs]") {
    bb::test::Store s;
    const long long run = s.run("e");
    for (int i = 0; i < 50; ++i) {
        s.boot(run, R"({"variant":"a"})", 1.0 + i);
    }
    s.store.finish_run(run, bb::RunStatus::Done);
    const InterruptReset reset;
    bb::request_interrupt(); // as SIGINT/SIGTERM's handler does
    CHECK_THROWS_AS(bb::delete_run(s.db, run), bb::Interrupted);
    bb::reset_interrupted();
    CHECK(count(s.db, "SELECT count(*) FROM boots") == 50);
    CHECK(count(s.db, "SELECT count(*) FROM runs") == 1);
    CHECK(bb::delete_run(s.db, run).boots == 50);
    CHECK(count(s.db, "SELECT count(*) FROM boots") == 0);
}

TEST_CASE("a run still marked running is deleted only with force", "[runs]") {
    bb::test::Store s;
    const long long run = s.run("e"); // begun, never finished: a writer may be live
    s.boot(run, R"({"variant":"a"})", 1.0);
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::delete_run(s.db, run); }),
               Catch::Contains("is still running"));
    CHECK(count(s.db, "SELECT count(*) FROM boots") == 1);
    CHECK(bb::delete_run(s.db, run, true).boots == 1);
}

TEST_CASE("damage that predates a delete is named, not blamed on the run", "[runs]") {
    bb::test::Store s;
    const long long kept = s.run("e");
    s.store.finish_run(kept, bb::RunStatus::Done);
    const long long doomed = s.run("e");
    s.boot(doomed, R"({"variant":"a"})", 1.0);
    s.store.finish_run(doomed, bb::RunStatus::Done);
    // A dangling host_id on another run (a hand-edited file): every delete used to fail with a
    // message blaming the run being deleted.
    s.db.sql().exec("PRAGMA foreign_keys = OFF");
    s.db.sql().exec("UPDATE runs SET host_id = 999 WHERE id = " + std::to_string(kept));
    s.db.sql().exec("PRAGMA foreign_keys = ON");
    const bb::DeletedRun deleted = bb::delete_run(s.db, doomed);
    CHECK(deleted.boots == 1);
    REQUIRE(deleted.damaged_before.size() == 1);
    CHECK_THAT(deleted.damaged_before[0], Catch::StartsWith("runs row " + std::to_string(kept)));
}

TEST_CASE("labelling a run that is gone says so (exit 2), not a foreign-key failure", "[runs]") {
    bb::test::Store s;
    const long long run = s.run("e");
    s.store.finish_run(run, bb::RunStatus::Done);
    bb::delete_run(s.db, run);
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] {
                   bb::label_run(s.db, run, {{"kept"}, {}, std::nullopt});
               }),
               Catch::StartsWith("no run " + std::to_string(run)));
}
