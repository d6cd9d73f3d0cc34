#include "pipeline/run_choice.h"
#include "store/boot_store.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <string>

// Which stored run `bootbench run` and `bootbench nightly` continue (issue 14, item 1): a real
// SQLite database in a temporary directory, runs begun through BootStore as the runner does.
namespace {
struct Fixture {
    bb::test::TempDir dir;
    bb::Database db{dir / "runs.sqlite"};
    bb::BootStore store{db};
    long long host = store.ensure_host(bb::test::bench_host_facts());

    static bb::Experiment experiment(const std::string& text, std::optional<std::uint64_t> seed) {
        bb::Experiment e;
        e.name = "smoke";
        e.file_name = "smoke.yaml";
        e.text = text;
        e.seed = seed;
        return e;
    }
    long long experiment_id(const bb::Experiment& e) {
        return store.ensure_experiment(e.name, e.text);
    }
    long long begin(const bb::Experiment& e, long long seed, const std::string& mode) {
        bb::RunStart start;
        start.experiment_id = experiment_id(e);
        start.seed = seed;
        start.mode = mode;
        return store.begin_run(host, start);
    }
};
} // namespace

TEST_CASE("a run of the same content and seed is resumed", "[run_choice]") {
    Fixture f;
    const auto e = Fixture::experiment("name: smoke\nseed: 1\n", 1);
    const long long run = f.begin(e, 1, "adhoc");
    bb::RunOptions options;
    const auto seed = bb::choose_seed(f.store, e, options);
    CHECK(seed == 1);
    CHECK(bb::find_resumable_run(f.store, e, f.experiment_id(e), seed, options) == run);
}

TEST_CASE("an edited file with the same seed is refused, not resumed", "[run_choice]") {
    Fixture f;
    const auto before = Fixture::experiment("name: smoke\nseed: 1\nrepeats: 2\n", 1);
    const long long run = f.begin(before, 1, "adhoc");
    const auto after = Fixture::experiment("name: smoke\nseed: 1\nrepeats: 3\n", 1);
    bb::RunOptions options;
    const std::string message = bb::test::thrown_message<bb::Error>(
        [&] { bb::find_resumable_run(f.store, after, f.experiment_id(after), 1, options); });
    CHECK_THAT(message, Catch::Contains("smoke.yaml: run " + std::to_string(run)));
    CHECK_THAT(message, Catch::Contains("different content"));
    CHECK_THAT(message, Catch::Contains("another --seed"));

    options.resume_run = run;
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] {
                   bb::find_resumable_run(f.store, after, f.experiment_id(after), 1, options);
               }),
               Catch::Contains("different content"));
}

TEST_CASE("a nightly never resumes and never reuses the file's seed", "[run_choice]") {
    Fixture f;
    const auto e = Fixture::experiment("name: smoke\nseed: 1\n", 1);
    f.begin(e, 1, "nightly");
    bb::RunOptions nightly;
    nightly.mode = "nightly";
    nightly.fresh_run = true;
    // A random seed may be 1 once in 2^31 draws; two draws both 1 would be a broken generator.
    const auto first = bb::choose_seed(f.store, e, nightly);
    const auto second = bb::choose_seed(f.store, e, nightly);
    CHECK((first != 1 || second != 1));
    CHECK_FALSE(bb::find_resumable_run(f.store, e, f.experiment_id(e), 1, nightly));
}

TEST_CASE("a run does not resume a run of another mode", "[run_choice]") {
    Fixture f;
    const auto e = Fixture::experiment("name: smoke\nseed: 1\n", 1);
    f.begin(e, 1, "nightly");
    bb::RunOptions options; // adhoc
    CHECK_FALSE(bb::find_resumable_run(f.store, e, f.experiment_id(e), 1, options));
}

TEST_CASE("run locks differ by database, experiment, seed and mode", "[run_choice]") {
    const auto lock = bb::run_lock_path("/tmp/a.sqlite", "smoke", 1, "adhoc");
    CHECK(lock == bb::run_lock_path("/tmp/a.sqlite", "smoke", 1, "adhoc"));
    CHECK(lock != bb::run_lock_path("/tmp/b.sqlite", "smoke", 1, "adhoc"));
    CHECK(lock != bb::run_lock_path("/tmp/a.sqlite", "other", 1, "adhoc"));
    CHECK(lock != bb::run_lock_path("/tmp/a.sqlite", "smoke", 2, "adhoc"));
    CHECK(lock != bb::run_lock_path("/tmp/a.sqlite", "smoke", 1, "nightly"));
}
