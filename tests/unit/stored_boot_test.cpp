// A stored boot read back for `bootbench repro`: the BootRecord fields a replay needs, and the
// markers' "not recorded" (a boot stored before schema 10), which decides what a replay times.
#include "repro/repro_plan.h"
#include "store/stored_boot.h"
#include "test_store.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

// A nested boot as bootbench stores it now: timed from L2's start to its boot-done marker.
bb::BootRecord nested_record(bb::test::Store& s, long long run) {
    bb::BootRecord record = s.record(run, R"({"hz":250})", 2.5, bb::BootOutcome::Timeout, 0.1);
    record.timing_marker = "boot-done";
    record.start_marker = "l2-start";
    record.console_log = "BOOTBENCH-MARKER l2-start 1.0\nBOOTBENCH-MARKER boot-done 3.5\n";
    record.initrd_path = "/k/initrd";
    record.initrd_sha256 = std::string(64, 'b');
    return record;
}

void forget_markers(bb::test::Store& s, long long boot_id) {
    SQLite::Statement update(s.db.sql(), "UPDATE boots SET timing_marker = NULL, "
                                         "start_marker = NULL WHERE id = ?");
    update.bind(1, static_cast<int64_t>(boot_id));
    update.exec();
}

} // namespace

TEST_CASE("a stored boot reads back as the BootRecord a replay needs", "[repro]") {
    bb::test::Store s;
    const long long run = s.run("nested-srcu");
    const bb::BootRecord record = nested_record(s, run);
    const long long id = s.store.insert_boot(record);

    const auto stored = bb::find_stored_boot(s.db, id);
    REQUIRE(stored);
    CHECK(stored->id == id);
    CHECK(stored->experiment == "nested-srcu");
    CHECK(stored->markers_recorded);
    const bb::BootRecord& read = stored->record;
    CHECK(read.run_id == run);
    CHECK(read.cell_key == record.cell_key);
    CHECK(read.repeat_index == record.repeat_index);
    CHECK(read.arch == "arm64");
    CHECK(read.kernel_path == "/k/Image");
    CHECK(read.initrd_path == record.initrd_path);
    CHECK(read.initrd_sha256 == record.initrd_sha256);
    CHECK_FALSE(read.build_key);
    CHECK(read.argv == record.argv);
    CHECK(read.launcher == "qemu");
    CHECK(read.outcome == bb::BootOutcome::Timeout);
    CHECK(read.boot_seconds == 2.5);
    CHECK(read.timing_marker == "boot-done");
    CHECK(read.start_marker == "l2-start");
    CHECK(read.foreign_load == 0.1);
    CHECK(read.started_at == record.started_at);
    CHECK(read.console_log == record.console_log);

    CHECK_FALSE(bb::find_stored_boot(s.db, id + 1));
}

TEST_CASE("a boot stored before schema 10 has no markers, and a replay guesses them", "[repro]") {
    bb::test::Store s;
    const long long run = s.run("");
    const long long nested = s.store.insert_boot(nested_record(s, run));
    bb::BootRecord plain = s.record(run, R"({"hz":100})", 1.0);
    plain.timing_marker = "init-done";
    const long long direct = s.store.insert_boot(plain);

    SECTION("recorded markers are replayed as they are") {
        const auto plan = bb::make_repro_plan(s.db, nested);
        CHECK(plan.marker == "boot-done");
        CHECK(plan.start_marker == "l2-start");
        CHECK(bb::make_repro_plan(s.db, direct).marker == "init-done");
        CHECK(bb::make_repro_plan(s.db, direct).start_marker.empty());
    }
    SECTION("unrecorded: boot-done, from L2's start when the console shows it, else from spawn") {
        forget_markers(s, nested);
        forget_markers(s, direct);
        const auto stored = bb::find_stored_boot(s.db, direct);
        REQUIRE(stored);
        CHECK_FALSE(stored->markers_recorded);
        CHECK(stored->record.timing_marker.empty());
        CHECK(stored->experiment.empty());

        const auto nested_plan = bb::make_repro_plan(s.db, nested);
        CHECK(nested_plan.marker == "boot-done");
        CHECK(nested_plan.start_marker == "l2-start");
        const auto direct_plan = bb::make_repro_plan(s.db, direct);
        CHECK(direct_plan.marker == "boot-done");
        CHECK(direct_plan.start_marker.empty());
        CHECK(direct_plan.inputs.size() == 1);
    }
}
