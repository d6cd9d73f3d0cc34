// `bootbench run` as a whole (pipeline/experiment_runner.h): the experiment file parsed, the
// seed chosen, the run begun, resumed after a Ctrl-C and finished, over FAKE artifacts and FAKE
// launchers (fake_artifacts.h, fake_launcher.h) given through RunOptions::environment: no
// kernel, no qemu. The database is a real scratch SQLite file. The real prepare and lanes are
// the integration tests' (tests/integration/run_matrix and others).
#include "experiment/experiment_parser.h"
#include "fake_artifacts.h"
#include "fake_launcher.h"
#include "pipeline/experiment_runner.h"
#include "store/boot_store.h"
#include "store/sample_selection.h"
#include "test_support.h"
#include "util/host_facts.h"
#include "util/interrupt.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <memory>
#include <set>

namespace {

constexpr const char* k_whole_run_yaml = R"(name: whole-run
kernel:
  arch: arm64
  variants:
    - name: a
    - name: b
      cmdline: bootbench.b=1
repeats: 2
seed: 7
)";

// Every launch is a guest that boots in a second, except launch `interrupt_at` (counted over
// the environment's whole life), which ends before its marker as a Ctrl-C during the boot would.
struct FakeEnvironment {
    explicit FakeEnvironment(bb::Database& results) : db(results) {}
    bb::Database& db;
    int launches = 0;
    int interrupt_at = -1;
    std::set<std::string> kernels_booted;
    bb::RunEnvironment environment{
        [](const std::vector<bb::Cell>& cells) { return bb::test::fake_artifacts(cells); },
        [this](const bb::RunArtifacts&, const std::vector<bb::Cell>&) {
            std::vector<std::unique_ptr<bb::Launcher>> launchers;
            launchers.push_back(
                std::make_unique<bb::test::FakeLauncher>([this](const bb::QemuSpec& spec, int) {
                    kernels_booted.insert(spec.kernel.string());
                    bb::test::FakeGuest guest = bb::test::booting_guest(1.0);
                    if (launches++ == interrupt_at) { // before its marker: nothing to keep
                        guest.console.resize(1);
                        guest.end = bb::test::FakeGuest::End::Interrupt;
                    }
                    return guest;
                }));
            // This machine, as the run registered it (the real lanes register it the same way).
            const long long host = bb::BootStore(db).ensure_host(bb::read_host_facts());
            return bb::BootLanes::given(std::move(launchers), {{"local", host, {}, nullptr}}, {0},
                                        [](size_t) { return std::string(); });
        }};
};

bb::RunProgress silent_progress() {
    auto ignore = [](const std::string&) {};
    return {ignore, ignore, ignore};
}

// A scratch database, the experiment above and the fake stages, given to the run's options.
struct WholeRun {
    bb::test::TempDir dir;
    bb::Database db{dir / "results.sqlite"};
    bb::Experiment experiment = bb::parse_experiment(k_whole_run_yaml, "whole-run.yaml");
    FakeEnvironment fake{db};
    bb::RunOptions options;

    WholeRun() {
        bb::reset_interrupted();
        options.environment = &fake.environment;
        options.quiet.no_wait = true;
    }
    ~WholeRun() { bb::reset_interrupted(); }
    bb::RunReport run() { return bb::run_experiment(db, experiment, options, silent_progress()); }
};

// A count over one run: `sql` has one placeholder, the run id.
long long count_of(bb::Database& db, const std::string& sql, long long run_id) {
    SQLite::Statement count(db.sql(), sql);
    count.bind(1, static_cast<int64_t>(run_id));
    count.executeStep();
    return count.getColumn(0).getInt64();
}

long long boots_of(bb::Database& db, long long run_id) {
    return count_of(db, "SELECT count(*) FROM boots WHERE run_id = ?", run_id);
}

} // namespace

TEST_CASE("run_experiment over fake stages: the file's seed, a Ctrl-C, then a resume that "
          "boots only the rest",
          "[runner]") {
    WholeRun whole;
    whole.fake.interrupt_at = 2; // the third of four samples
    const bb::RunReport first = whole.run();
    CHECK(first.seed == 7);
    CHECK_FALSE(first.resumed);
    CHECK(first.status == bb::RunStatus::Interrupted);
    CHECK(first.samples_total == 4);
    CHECK(first.samples_run == 2); // the interrupted boot is not stored
    CHECK(boots_of(whole.db, first.run_id) == 2);

    bb::reset_interrupted();
    const bb::RunReport second = whole.run();
    CHECK(second.resumed);
    CHECK(second.run_id == first.run_id);
    CHECK(second.seed == 7);
    CHECK(second.samples_skipped == 2);
    CHECK(second.samples_run == 2);
    CHECK(second.status == bb::RunStatus::Done);
    CHECK(boots_of(whole.db, first.run_id) == 4);
    CHECK(whole.fake.launches == 5); // 2 stored + 1 interrupted, then the 2 left
    CHECK(whole.fake.kernels_booted.size() == 2);

    SQLite::Statement status(whole.db.sql(), "SELECT status FROM runs WHERE id = ?");
    status.bind(1, static_cast<int64_t>(first.run_id));
    REQUIRE(status.executeStep());
    CHECK(status.getColumn(0).getString() == "done");
}

TEST_CASE("run_experiment over fake stages: a new seed is a new run, which begins afresh",
          "[runner]") {
    WholeRun whole;
    const bb::RunReport first = whole.run();
    whole.options.seed = 8;
    const bb::RunReport second = whole.run();
    CHECK(first.status == bb::RunStatus::Done);
    CHECK(second.status == bb::RunStatus::Done);
    CHECK(second.seed == 8);
    CHECK_FALSE(second.resumed);
    CHECK(second.run_id != first.run_id);
    CHECK(boots_of(whole.db, second.run_id) == 4);
    CHECK(whole.fake.launches == 8);
}

TEST_CASE("run_experiment with --warmup: each cell boots first, stored below repeat 0 and never "
          "used, and a resume warms up again",
          "[runner]") {
    WholeRun whole;
    whole.options.warmup = 1;
    whole.fake.interrupt_at = 3; // two warm-ups, one sample, then a Ctrl-C
    const bb::RunReport first = whole.run();
    CHECK(first.samples_warmup == 2);
    CHECK(first.samples_total == 4); // warm-ups are not samples of the plan
    CHECK(first.samples_run == 3);
    CHECK(count_of(whole.db,
                   "SELECT count(*) FROM (SELECT repeat_index FROM boots WHERE run_id = ? "
                   "ORDER BY id LIMIT 2) WHERE repeat_index = -1",
                   first.run_id) == 2); // booted before any sample

    bb::reset_interrupted();
    const bb::RunReport second = whole.run();
    CHECK(second.resumed);
    CHECK(second.samples_skipped == 1);
    CHECK(second.samples_warmup == 2);
    CHECK(second.status == bb::RunStatus::Done);
    const long long run = first.run_id;
    CHECK(boots_of(whole.db, run) == 8);
    CHECK(count_of(whole.db, "SELECT count(*) FROM boots WHERE run_id = ? AND repeat_index = -2",
                   run) == 2);
    CHECK(count_of(whole.db, "SELECT count(*) FROM v_samples WHERE run_id = ? AND warmup = 1",
                   run) == 4);
    CHECK(count_of(whole.db, "SELECT count(*) FROM v_samples WHERE run_id = ? AND used = 1", run) ==
          4);
    // Reports never see them, not even as boots left out.
    CHECK(bb::run_boots(whole.db, run).size() == 4);
}

TEST_CASE("run_experiment refuses a --warmup out of range", "[runner]") {
    WholeRun whole;
    whole.options.warmup = bb::k_max_warmup + 1;
    CHECK_THROWS_WITH(whole.run(), Catch::Contains("--warmup must be 0 to 20"));
}
