#include "pipeline/sample_scheduler.h"
#include "store/run_status.h"
#include "util/error.h"
#include "util/interrupt.h"

#include <catch2/catch.hpp>
#include <string>

using bb::RunStatus;

// runs.status keeps the words it always held (0001_initial.sql's CHECK): old databases and
// scripts reading them see no change.
TEST_CASE("a run status is stored as the word it always was", "[run-status]") {
    CHECK(bb::to_string(RunStatus::Running) == "running");
    CHECK(bb::to_string(RunStatus::Done) == "done");
    CHECK(bb::to_string(RunStatus::Interrupted) == "interrupted");
    CHECK(bb::to_string(RunStatus::Failed) == "failed");
    for (const auto status :
         {RunStatus::Running, RunStatus::Done, RunStatus::Interrupted, RunStatus::Failed}) {
        CHECK(bb::parse_run_status(bb::to_string(status)) == status);
    }
    CHECK_THROWS_AS(bb::parse_run_status("finished"), bb::Error);
}

TEST_CASE("a run ends interrupted, failed when samples were left behind, else done",
          "[run-status]") {
    bb::ScheduleResult executed;
    CHECK(bb::finished_status(executed) == RunStatus::Done);
    executed.quiet_stop = "the host stayed busy";
    CHECK(bb::finished_status(executed) == RunStatus::Failed);
    executed.quiet_stop.clear();
    executed.stranded = 2; // every host of the fleet was lost
    CHECK(bb::finished_status(executed) == RunStatus::Failed);
    bb::request_interrupt();
    const RunStatus stopped = bb::finished_status(executed);
    bb::reset_interrupted();
    CHECK(stopped == RunStatus::Interrupted);
}
