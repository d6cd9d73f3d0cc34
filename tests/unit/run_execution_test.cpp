// The execute and record stages of `bootbench run` (pipeline/run_execution.h) over FAKE
// launchers (fake_launcher.h): no qemu, no kernel; the database is a real scratch SQLite file.
// What real guests do to these paths is covered by tests/integration and tests/reliability.
#include "fake_artifacts.h"
#include "fake_launcher.h"
#include "pipeline/precision_repeats.h"
#include "pipeline/run_execution.h"
#include "pipeline/sample_plan.h"
#include "test_store.h"
#include "util/interrupt.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

namespace {

using bb::test::FakeGuest;
using bb::test::FakeLauncher;
using Script = std::function<FakeGuest(const bb::QemuSpec&, int)>;

bb::Cell fake_cell(const std::string& variant) {
    bb::Cell cell;
    cell.variant = variant;
    cell.cell_key = "variant=" + variant;
    cell.params = {{"variant", variant}};
    cell.build_id = "kernel-" + variant;
    cell.cmdline = "bootbench.cell=" + variant; // the script tells the cells apart by it
    return cell;
}

bool is_cell(const bb::QemuSpec& spec, const std::string& variant) {
    return spec.cmdline == "bootbench.cell=" + variant;
}

// A run of `variants` over fake lanes: `scripts[i]` plays lane i's guests, on host
// `lane_hosts[i]`; `lost_hosts` answers which hosts stopped answering.
struct FakeRun {
    bb::test::Store db;
    bb::Experiment experiment;
    std::vector<bb::Cell> cells;
    bb::RunArtifacts artifacts;
    bb::QuietSettings quiet;
    long long run_id = 0;
    std::vector<std::string> notes;
    std::vector<std::string> sample_lines;
    std::mutex lines_mutex;
    std::map<size_t, std::string> lost_hosts;
    std::unique_ptr<bb::SampleRecorder> recorder;
    std::unique_ptr<bb::PrecisionRepeats> precision;
    std::unique_ptr<bb::BootLanes> lanes;

    FakeRun(const std::vector<std::string>& variants, std::vector<Script> scripts,
            const std::vector<size_t>& lane_hosts, int repeats) {
        bb::reset_interrupted();
        experiment.name = "fake";
        experiment.repeats = repeats;
        experiment.max_repeats = repeats;
        experiment.silence_s = 30;
        experiment.timeout_s = 600;
        for (const auto& variant : variants) {
            cells.push_back(fake_cell(variant));
        }
        artifacts = bb::test::fake_artifacts(cells);
        quiet.wait = false;
        run_id = db.run("fake");
        std::vector<std::unique_ptr<bb::Launcher>> launchers;
        std::vector<bb::LaneHost> hosts;
        for (auto& script : scripts) {
            launchers.push_back(std::make_unique<FakeLauncher>(std::move(script)));
        }
        for (size_t host = 0; host <= *std::max_element(lane_hosts.begin(), lane_hosts.end());
             ++host) {
            hosts.push_back({"host" + std::to_string(host), db.host, {}, nullptr});
        }
        lanes = std::make_unique<bb::BootLanes>(
            bb::BootLanes::given(std::move(launchers), hosts, lane_hosts, [this](size_t host) {
                std::lock_guard lock(lines_mutex);
                return lost_hosts.count(host) ? lost_hosts.at(host) : std::string();
            }));
    }
    ~FakeRun() { bb::reset_interrupted(); }

    bb::RunExecution execution() {
        recorder = std::make_unique<bb::SampleRecorder>(
            db.store, run_id, experiment, cells, quiet,
            bb::SampleRecorder::Sinks{
                [this](const std::string& line) { notes.push_back(line); },
                [this](const bb::StoredSample& stored) { sample_lines.push_back(stored.line); },
                nullptr});
        precision = std::make_unique<bb::PrecisionRepeats>(experiment, cells, db.store, 7);
        bb::RunProgress progress;
        progress.status = [](const std::string&) {};
        progress.note = [this](const std::string& line) { notes.push_back(line); };
        progress.sample = [this](const std::string& line) { sample_lines.push_back(line); };
        return {experiment, cells,      artifacts, *lanes,   quiet,
                *recorder,  *precision, run_id,    progress, nullptr};
    }

    std::vector<bb::SampleRef> plan(const std::set<std::pair<std::string, int>>& stored = {}) {
        return bb::samples_to_boot(cells, experiment.repeats, 7, true, stored);
    }

    bb::ScheduleResult execute() { return bb::execute_run(execution(), plan(), 0); }

    // (cell key, repeat, outcome) of every stored boot, in id order.
    std::vector<std::tuple<std::string, int, std::string>> stored() {
        SQLite::Statement query(db.db.sql(), "SELECT cell_key, repeat_index, outcome FROM boots "
                                             "WHERE run_id = ? ORDER BY id");
        query.bind(1, static_cast<int64_t>(run_id));
        std::vector<std::tuple<std::string, int, std::string>> rows;
        while (query.executeStep()) {
            rows.emplace_back(query.getColumn(0).getString(), query.getColumn(1).getInt(),
                              query.getColumn(2).getString());
        }
        return rows;
    }
};

Script always(double seconds) {
    return [seconds](const bb::QemuSpec&, int) { return bb::test::booting_guest(seconds); };
}

} // namespace

TEST_CASE("fake lanes: every planned sample is booted once and stored with its cell",
          "[runner][fake]") {
    FakeRun run({"a", "b"}, {always(4.0), always(5.0)}, {0, 0}, 3);
    const bb::ScheduleResult result = run.execute();
    CHECK(result.finished == 6);
    CHECK(result.planned == 6);
    CHECK(result.failure.empty());
    const auto rows = run.stored();
    REQUIRE(rows.size() == 6);
    std::set<std::pair<std::string, int>> samples;
    for (const auto& [key, repeat, outcome] : rows) {
        CHECK(outcome == "ok");
        samples.insert({key, repeat});
    }
    CHECK(samples.size() == 6); // each (cell, repeat) once
    CHECK(run.recorder->counts().stored == 6);
    CHECK(run.recorder->counts().failed == 0);
    CHECK(run.sample_lines.size() == 6);
}

TEST_CASE("fake lanes: a hang, a crash and a bad exit are stored as what they were",
          "[runner][fake]") {
    Script script = [](const bb::QemuSpec& spec, int) {
        FakeGuest guest = bb::test::booting_guest(3.0);
        if (is_cell(spec, "hang")) {
            guest.console.resize(1); // prints a line, then nothing
            guest.end = FakeGuest::End::Hang;
        } else if (is_cell(spec, "crash")) {
            guest.console.resize(1);
            guest.end = FakeGuest::End::Crash;
        }
        return guest;
    };
    FakeRun run({"ok", "hang", "crash"}, {script}, {0}, 1);
    const bb::ScheduleResult result = run.execute();
    CHECK(result.finished == 3);
    std::map<std::string, std::string> outcome_of;
    for (const auto& [key, repeat, outcome] : run.stored()) {
        outcome_of[key] = outcome;
    }
    CHECK(outcome_of.at("variant=ok") == "ok");
    CHECK(outcome_of.at("variant=hang") == "silent");
    CHECK(outcome_of.at("variant=crash") == "crash");
    CHECK(run.recorder->counts().failed == 2);
}

TEST_CASE("fake lanes: a lost host's sample is stored as failed and booted again on another host",
          "[runner][fake]") {
    FakeRun* self = nullptr;
    std::atomic<bool> host0_tried{false};
    // host0 is lost during its first boot; host1 waits for that, so both lanes surely boot.
    Script dying = [&self, &host0_tried](const bb::QemuSpec&, int) {
        {
            std::lock_guard lock(self->lines_mutex);
            self->lost_hosts[0] = "connection reset by peer";
        }
        host0_tried = true;
        FakeGuest guest;
        guest.end = FakeGuest::End::HostLost;
        guest.host_failure = "connection reset by peer";
        return guest;
    };
    Script waiting = [&host0_tried](const bb::QemuSpec&, int) {
        for (int i = 0; i < 5000 && !host0_tried; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return bb::test::booting_guest(4.0);
    };
    FakeRun run({"a", "b"}, {dying, waiting}, {0, 1}, 4);
    self = &run;
    const bb::ScheduleResult result = run.execute();
    CHECK(result.hosts_lost == 1);
    CHECK(result.requeued == 1);
    CHECK(result.finished == 8); // every sample in the end, host1 booting the rest
    CHECK(result.stranded == 0);
    int infra = 0;
    std::set<std::pair<std::string, int>> ok_samples;
    for (const auto& [key, repeat, outcome] : run.stored()) {
        if (outcome == "ok") {
            ok_samples.insert({key, repeat});
        } else {
            CHECK(outcome == "infra-error");
            ++infra;
        }
    }
    CHECK(infra == 1);
    CHECK(ok_samples.size() == 8);
    SQLite::Statement reason(run.db.db.sql(),
                             "SELECT outcome_reason FROM boots WHERE outcome = 'infra-error'");
    REQUIRE(reason.executeStep());
    CHECK_THAT(reason.getColumn(0).getString(),
               Catch::Contains("host host0 stopped answering: connection reset by peer"));
    CHECK(std::any_of(run.notes.begin(), run.notes.end(), [](const std::string& note) {
        return note.find("host host0 lost") != std::string::npos;
    }));
}

TEST_CASE("fake lanes: when every host is lost the rest of the queue is stranded, not dropped",
          "[runner][fake]") {
    FakeRun* self = nullptr;
    Script dying = [&self](const bb::QemuSpec&, int) {
        std::lock_guard lock(self->lines_mutex);
        self->lost_hosts[0] = "gone";
        FakeGuest guest;
        guest.end = FakeGuest::End::HostLost;
        return guest;
    };
    FakeRun run({"a"}, {dying}, {0}, 3);
    self = &run;
    const bb::ScheduleResult result = run.execute();
    CHECK(result.finished == 0);
    CHECK(result.stranded == 3);
    CHECK(result.hosts_lost == 1);
}

TEST_CASE("fake lanes: Ctrl-C during a boot stores nothing of it, and a resume boots the rest",
          "[runner][fake]") {
    Script interrupting = [](const bb::QemuSpec&, int attempt) {
        FakeGuest guest = bb::test::booting_guest(2.0);
        if (attempt == 2) {
            guest.console.resize(1);
            guest.end = FakeGuest::End::Interrupt;
        }
        return guest;
    };
    FakeRun run({"a", "b"}, {interrupting}, {0}, 3);
    const bb::ScheduleResult first = run.execute();
    CHECK(bb::interrupted());
    CHECK(first.finished == 2);
    REQUIRE(run.stored().size() == 2);

    bb::reset_interrupted();
    const auto rest = run.plan(run.db.store.stored_samples(run.run_id));
    CHECK(rest.size() == 4);
    const bb::ScheduleResult resumed = bb::execute_run(run.execution(), rest, 2);
    CHECK(resumed.finished == 4);
    std::set<std::pair<std::string, int>> samples;
    for (const auto& [key, repeat, outcome] : run.stored()) {
        samples.insert({key, repeat});
    }
    CHECK(samples.size() == 6);
}

TEST_CASE("fake lanes: a quiet gate that gives up ends the run before the sample boots",
          "[runner][fake]") {
    FakeRun run({"a"}, {always(3.0)}, {0}, 4);
    run.quiet.wait = true;
    run.quiet.on_timeout = bb::QuietTimeout::Stop;
    bb::SampleWork work = bb::run_sample_work(run.execution());
    int gated = 0;
    work.gate = [&gated](size_t, const std::string&) {
        bb::QuietVerdict verdict;
        verdict.first_load = verdict.load_before = 0.9;
        if (++gated == 3) {
            verdict.timed_out = true; // the third sample: still busy after max_wait
            verdict.waited_s = 600;
        }
        return std::optional<bb::QuietVerdict>(verdict);
    };
    const bb::ScheduleResult result =
        bb::execute_samples(bb::schedule_lanes(*run.lanes), run.quiet, run.plan(), work);
    CHECK(result.finished == 2);
    CHECK_THAT(result.quiet_stop,
               Catch::Contains("the host was not quiet") && Catch::Contains("before variant=a r"));
    CHECK(run.stored().size() == 2); // the third was not booted: a resume boots it
}

TEST_CASE("fake lanes: a run whose boots are loaded stores them as loaded", "[runner][fake]") {
    FakeRun run({"a"}, {always(3.0)}, {0}, 2);
    run.quiet.max_load = 0.10;
    bb::SampleWork work = bb::run_sample_work(run.execution());
    work.gate = [](size_t, const std::string&) {
        bb::QuietVerdict verdict; // still busy after the wait, booted anyway (run-loaded)
        verdict.first_load = verdict.load_before = 0.8;
        verdict.timed_out = true;
        verdict.waited_s = 5;
        return std::optional<bb::QuietVerdict>(verdict);
    };
    const bb::ScheduleResult result =
        bb::execute_samples(bb::schedule_lanes(*run.lanes), run.quiet, run.plan(), work);
    CHECK(result.finished == 2);
    CHECK(result.waited == 2);
    CHECK(run.recorder->counts().loaded == 2);
    SQLite::Statement loaded(run.db.db.sql(), "SELECT COUNT(*) FROM boots WHERE loaded = 1");
    REQUIRE(loaded.executeStep());
    CHECK(loaded.getColumn(0).getInt() == 2);
}

TEST_CASE("fake lanes: precision repeats add rounds only to the imprecise cell", "[runner][fake]") {
    // Cell "steady" boots in 5.0 s every time: precise at min. Cell "noisy" alternates 2 and
    // 9 s: never within 2 %, so it runs to max.
    auto noisy_boots = std::make_shared<std::atomic<int>>(0);
    Script script = [noisy_boots](const bb::QemuSpec& spec, int) {
        if (is_cell(spec, "noisy")) {
            return bb::test::booting_guest((*noisy_boots)++ % 2 == 0 ? 2.0 : 9.0);
        }
        return bb::test::booting_guest(5.0);
    };
    FakeRun run({"steady", "noisy"}, {script}, {0}, 6);
    run.experiment.max_repeats = 9;
    run.experiment.until = bb::PrecisionTarget{bb::Endpoint{}, 0.02};
    const bb::ScheduleResult result = run.execute();
    CHECK(result.planned == 6 + 9);
    CHECK(result.finished == 15);
    std::map<std::string, int> per_cell;
    for (const auto& [key, repeat, outcome] : run.stored()) {
        ++per_cell[key];
    }
    CHECK(per_cell.at("variant=steady") == 6);
    CHECK(per_cell.at("variant=noisy") == 9);
    const auto stops = run.db.store.cell_stops(run.run_id);
    CHECK(stops.size() == 2);
}

TEST_CASE("fake lanes: a store that fails stops every lane and says why", "[runner][fake]") {
    FakeRun run({"a", "b"}, {always(3.0), always(3.0)}, {0, 0}, 5);
    bb::SampleWork work = bb::run_sample_work(run.execution());
    int records = 0;
    const auto record = work.record;
    work.record = [&](bb::BootRecord& boot, const bb::SampleRef& sample, size_t lane,
                      const std::optional<bb::QuietVerdict>& verdict) {
        if (++records == 3) {
            throw std::runtime_error("database is locked");
        }
        return record(boot, sample, lane, verdict);
    };
    const bb::ScheduleResult result =
        bb::execute_samples(bb::schedule_lanes(*run.lanes), run.quiet, run.plan(), work);
    CHECK(result.failure == "database is locked");
    CHECK(bb::interrupted());
    CHECK(run.stored().size() <= 3); // the other lane's boot in flight may still be stored
    CHECK(run.stored().size() >= 2);
}

TEST_CASE("plan: a resumed run boots only what is missing, in the order of the first",
          "[runner][plan]") {
    const std::vector<bb::Cell> cells{fake_cell("a"), fake_cell("b"), fake_cell("c")};
    const auto all = bb::samples_to_boot(cells, 3, 11, true, {});
    REQUIRE(all.size() == 9);
    const std::set<std::pair<std::string, int>> stored{{"variant=a", 0}, {"variant=c", 2}};
    const auto rest = bb::samples_to_boot(cells, 3, 11, true, stored);
    REQUIRE(rest.size() == 7);
    std::vector<bb::SampleRef> expected;
    std::copy_if(all.begin(), all.end(), std::back_inserter(expected), [&](const auto& sample) {
        return !stored.count({cells[sample.first].cell_key, sample.second});
    });
    CHECK(rest == expected);
    CHECK(bb::samples_to_boot(cells, 3, 12, true, {}) != all); // the seed decides the order
}

TEST_CASE("plan: warm-ups come round by round over the cells left to measure, numbered below "
          "every stored repeat",
          "[runner][plan]") {
    const std::vector<bb::Cell> cells{fake_cell("a"), fake_cell("b"), fake_cell("c")};
    // Only b and a are left to measure, b first: c gets no warm-up.
    const std::vector<bb::SampleRef> measured{{1, 2}, {0, 1}, {1, 0}};
    const std::set<std::pair<std::string, int>> stored{
        {"variant=a", -1}, {"variant=a", -3}, {"variant=b", 0}};
    const auto warmups = bb::warmup_samples(cells, 2, measured, stored);
    const std::vector<bb::SampleRef> expected{{1, -1}, {0, -2}, {1, -2}, {0, -4}};
    CHECK(warmups == expected);
    CHECK(bb::warmup_samples(cells, 0, measured, stored).empty());
    CHECK(bb::warmup_samples(cells, 3, {}, stored).empty()); // nothing left to measure
    CHECK(bb::measured_count(stored) == 1);                  // later rounds' seed ignores them
}
