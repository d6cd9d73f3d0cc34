// bootbench export: a compact copy of chosen runs, readable by every view, without consoles.
#include "store/export.h"
#include "test_store.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>

namespace {
long long count(bb::Database& db, const std::string& sql) {
    return db.sql().execAndGet(sql).getInt64();
}
} // namespace

TEST_CASE("an export keeps the chosen runs whole and leaves out the rest and the consoles") {
    bb::test::Store s;
    const long long kept = s.run("kept");
    const long long other = s.run("other");
    auto boot = s.record(kept, R"({"variant":"a"})", 1.5, bb::BootOutcome::Ok, 0.0,
                         {{"storm", 2.5, "s", 1.0}});
    boot.console_log = std::string(10000, 'x');
    boot.console_tail = "tail";
    s.store.insert_boot(boot);
    s.boot(kept, R"({"variant":"b"})", 1.7);
    s.boot(other, R"({"variant":"a"})", 9.9);
    const auto out = s.dir / "export.sqlite";

    const bb::ExportSummary summary = bb::export_runs(s.db, {kept}, out);
    CHECK(summary.runs == 1);
    CHECK(summary.boots == 2);
    bb::Database copy(out, bb::Database::Mode::ReadOnly);
    CHECK(count(copy, "SELECT count(*) FROM runs") == 1);
    CHECK(count(copy, "SELECT count(*) FROM experiments") == 1);
    CHECK(count(copy, "SELECT count(*) FROM v_samples WHERE used = 1") == 2);
    CHECK(count(copy, "SELECT count(*) FROM metrics WHERE name = 'storm'") == 1);
    CHECK(count(copy, "SELECT count(*) FROM boots WHERE console_gz IS NOT NULL OR "
                      "console_tail != ''") == 0);
    CHECK(bb::runs_of_experiments(s.db, {"other", "kept"}) == std::vector<long long>{other, kept});
}

TEST_CASE("an export of a run that does not exist, or of an unknown experiment, is an error") {
    bb::test::Store s;
    s.run("kept");
    CHECK(bb::test::thrown_message<bb::Error>([&] {
              bb::export_runs(s.db, {99}, s.dir / "x.sqlite");
          }).find("no run 99 in ") == 0);
    CHECK(bb::test::thrown_message<bb::Error>([&] {
              bb::runs_of_experiments(s.db, {"nope"});
          }).find("no run of experiment nope in ") == 0);
}

// Issue 32, item 2: `export --run 1 -o X` onto its own source deleted every other run, and an
// existing file was replaced without a word.
TEST_CASE("an export never writes its source and replaces another file only when told") {
    bb::test::Store s;
    const long long kept = s.run("kept");
    s.boot(kept, R"({"variant":"a"})", 1.5);
    s.boot(s.run("other"), R"({"variant":"a"})", 9.9);
    const auto runs_before = count(s.db, "SELECT count(*) FROM runs");
    CHECK(bb::test::thrown_message<bb::Error>([&] {
              bb::export_runs(s.db, {kept}, s.db.path(), true);
          }).find("the database this command reads") != std::string::npos);
    CHECK(count(s.db, "SELECT count(*) FROM runs") == runs_before);

    const auto out = s.dir / "existing.sqlite";
    bb::test::write_bytes(out, "someone's file");
    CHECK(bb::test::thrown_message<bb::Error>([&] {
              bb::export_runs(s.db, {kept}, out);
          }).find("exists: bootbench does not replace a file without --force") !=
          std::string::npos);
    CHECK(bb::test::read_text(out) == "someone's file");
    CHECK(bb::export_runs(s.db, {kept}, out, true).runs == 1);
}

TEST_CASE("an export leaves no temporary copy behind, and removes a killed export's") {
    bb::test::Store s;
    const long long kept = s.run("kept");
    s.boot(kept, R"({"variant":"a"})", 1.5);
    const auto out = s.dir / "out.sqlite";
    // A pid that cannot run: the copy of an export that was killed.
    const auto stale = s.dir / "out.sqlite.tmp.999999999";
    bb::test::write_bytes(stale, "half a database");
    bb::test::write_bytes(s.dir / "out.sqlite.tmp.999999999-wal", "its wal");
    CHECK_THROWS_AS(bb::export_runs(s.db, {kept, 42}, out), bb::Error);
    CHECK(bb::export_runs(s.db, {kept}, out).runs == 1);
    for (const auto& entry : std::filesystem::directory_iterator(s.dir.path())) {
        INFO(entry.path());
        CHECK(entry.path().filename().string().find(".tmp.") == std::string::npos);
    }
}
