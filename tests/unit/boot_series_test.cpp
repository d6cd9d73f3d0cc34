// `bootbench boot` (pipeline/boot_series.h) as a one-cell run over a FAKE launcher
// (fake_launcher.h): no qemu. The kernel and initramfs are small files written here, hashed as
// real ones are; the database is a real scratch SQLite file. Real boots of the series are the
// integration tests' (integration.boot_arm64_efi, integration.boot_x86_ovmf).
#include "experiment/experiment.h"
#include "fake_launcher.h"
#include "pipeline/boot_series.h"
#include "report/boot_summary.h"
#include "test_support.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/interrupt.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>

namespace {

std::filesystem::path write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// A series over fake files: a kernel and an initramfs the fake launcher never reads, hashed as
// real ones are; TCG asked for (no probe), no quiet gate.
bb::BootSeriesRequest fake_series(const std::filesystem::path& dir) {
    bb::BootSeriesRequest request;
    request.spec.kernel = write_file(dir / "Image", "not a kernel: the fake launcher boots none");
    request.initrd = write_file(dir / "initrd.img", "not an initramfs either");
    request.accel = bb::AccelRequest::Tcg;
    request.quiet.wait = false;
    return request;
}

} // namespace

TEST_CASE("boot series: every boot stored on the run's stages, stamped with the series' inputs",
          "[runner]") {
    bb::reset_interrupted();
    bb::test::TempDir dir;
    bb::Database db(dir / "results.sqlite");
    bb::BootSeriesRequest request = fake_series(dir.path());
    request.spec.cmdline = "quiet loglevel=3";
    request.spec.smp = 3;
    request.repeats = 3;
    int launches = 0;
    std::string cmdline_seen;
    int smp_seen = 0;
    bb::test::FakeLauncher launcher([&](const bb::QemuSpec& spec, int) {
        ++launches;
        cmdline_seen = spec.cmdline;
        smp_seen = spec.smp;
        return bb::test::booting_guest(1.5);
    });
    std::vector<std::string> notes;
    const bb::Progress progress{[](const std::string&) {},
                                [&notes](const std::string& line) { notes.push_back(line); }};

    const bb::BootSeriesResult result = bb::run_boot_series(db, launcher, request, progress);
    CHECK(launches == 3);
    CHECK(cmdline_seen == "quiet loglevel=3"); // the request's shape reached the launcher
    CHECK(smp_seen == 3);
    CHECK(result.run_status == bb::RunStatus::Done);
    REQUIRE(result.boot_ids.size() == 3);
    SQLite::Statement boots(db.sql(), "SELECT kernel_sha256, initrd_sha256, build_key, "
                                      "cell_key, repeat_index, boot_seconds, outcome, accel_reason "
                                      "FROM boots WHERE run_id = ? ORDER BY id");
    boots.bind(1, static_cast<int64_t>(result.run_id));
    int repeat = 0;
    while (boots.executeStep()) {
        CHECK(boots.getColumn(0).getString() == bb::sha256_file(request.spec.kernel));
        CHECK(boots.getColumn(1).getString() == bb::sha256_file(*request.initrd));
        CHECK(boots.getColumn(2).isNull()); // a kernel bootbench did not build has no build key
        CHECK(boots.getColumn(3).getString().empty());
        CHECK(boots.getColumn(4).getInt() == repeat++);
        CHECK(boots.getColumn(5).getDouble() == Approx(1.5));
        CHECK(boots.getColumn(6).getString() == "ok");
        CHECK(boots.getColumn(7).getString() == "tcg requested");
    }
    CHECK(repeat == 3);
    CHECK(std::count_if(notes.begin(), notes.end(), [](const std::string& line) {
              return line.find("boot 2/3") != std::string::npos;
          }) == 1);
}

// Issue 48 item 15: when storing a sample failed, `run` marked its run failed and `boot` left it
// running. Both end alike now (pipeline/failed_run.h).
TEST_CASE("boot series: a store that fails marks the run failed and exits 3", "[runner]") {
    bb::reset_interrupted();
    bb::test::TempDir dir;
    bb::Database db(dir / "results.sqlite");
    // The store fails as a full disk would: every boot row refused.
    db.sql().exec("CREATE TRIGGER refuse_boots BEFORE INSERT ON boots "
                  "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
    bb::BootSeriesRequest request = fake_series(dir.path());
    request.repeats = 2;
    bb::test::FakeLauncher launcher(
        [](const bb::QemuSpec&, int) { return bb::test::booting_guest(1.5); });
    const bb::Progress progress{[](const std::string&) {}, [](const std::string&) {}};
    CHECK_THROWS_AS(bb::run_boot_series(db, launcher, request, progress), bb::RuntimeFailure);
    CHECK(db.sql().execAndGet("SELECT group_concat(status) FROM runs").getString() == "failed");
}

TEST_CASE("boot series with --warmup: the warm-ups boot first, are stored and stay out of the "
          "summary's statistics",
          "[runner]") {
    bb::reset_interrupted();
    bb::test::TempDir dir;
    bb::Database db(dir / "results.sqlite");
    bb::BootSeriesRequest request = fake_series(dir.path());
    request.repeats = 2;
    request.warmup = 2;
    int launches = 0;
    // The warm-ups are slow (a host just woken), the boots that count are not.
    bb::test::FakeLauncher launcher(
        [&](const bb::QemuSpec&, int) { return bb::test::booting_guest(launches++ < 2 ? 9 : 1); });
    std::vector<std::string> notes;
    const bb::Progress progress{[](const std::string&) {},
                                [&notes](const std::string& line) { notes.push_back(line); }};
    const bb::BootSeriesResult result = bb::run_boot_series(db, launcher, request, progress);
    CHECK(launches == 4);
    REQUIRE(result.boots.size() == 4);
    CHECK(result.boots[0].repeat_index == -1);
    CHECK(result.boots[1].repeat_index == -2);
    CHECK(result.boots[2].repeat_index == 0);
    const std::string summary = bb::render_boot_summary(result.boots);
    INFO(summary);
    CHECK(summary.find("2 boots") != std::string::npos); // n is the series, not the warm-ups
    CHECK(summary.find("9.") == std::string::npos);      // no warm-up time in min … max
    CHECK(summary.find("2 ok, 2 warmup") != std::string::npos);
    CHECK(std::count_if(notes.begin(), notes.end(), [](const std::string& line) {
              return line.find("warmup 2/2") != std::string::npos;
          }) == 1);
    request.warmup = bb::k_max_warmup + 1;
    CHECK_THROWS_WITH(bb::run_boot_series(db, launcher, request, progress),
                      Catch::Contains("--warmup must be 0 to 20, got 21"));
}
