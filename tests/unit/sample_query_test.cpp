#include "report/comparison_table.h"
#include "report/junit_format.h"
#include "report/sample_query.h"
#include "store/boot_store.h"
#include "test_store.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

using bb::AxisValue;
using bb::BootOutcome;
using bb::Sample;
using bb::SampleQuery;
using bb::test::Store;

namespace {

std::vector<std::string> labels(const bb::SampleSet& set) {
    std::vector<std::string> out;
    for (const auto& group : set.groups) {
        out.push_back(bb::group_label(set.axes, group.key));
    }
    return out;
}

SampleQuery by(std::vector<std::string> axes) {
    SampleQuery query;
    query.by = std::move(axes);
    return query;
}

} // namespace

TEST_CASE("parse_axes splits, trims and refuses what cannot be an axis", "[sample_query]") {
    CHECK(bb::parse_axes("hz") == std::vector<std::string>{"hz"});
    CHECK(bb::parse_axes("hz, variant") == std::vector<std::string>{"hz", "variant"});
    CHECK(bb::parse_axes("srcutree.srcu_max_nodelay_phase") ==
          std::vector<std::string>{"srcutree.srcu_max_nodelay_phase"});
    CHECK_THROWS_AS(bb::parse_axes(""), bb::Error);
    CHECK_THROWS_AS(bb::parse_axes("hz,,variant"), bb::Error);
    CHECK_THROWS_AS(bb::parse_axes("hz,"), bb::Error);
    CHECK_THROWS_AS(bb::parse_axes("hz,hz"), bb::Error);
    const auto message =
        bb::test::thrown_message<bb::Error>([] { bb::parse_axes(R"(hz"),variant)"); });
    CHECK(message.find("double quote") != std::string::npos);
}

TEST_CASE("samples grouped by a JSON axis, numbers sorted numerically", "[sample_query]") {
    Store s;
    const long long run = s.run("srcu");
    s.boot(run, R"({"hz":1000,"variant":"a"})", 1.0);
    s.boot(run, R"({"hz":250,"variant":"a"})", 2.0);
    s.boot(run, R"({"hz":1000,"variant":"b"})", 3.0);
    s.boot(run, R"({"hz":250,"variant":"b"})", 4.0);
    s.boot(run, R"({"hz":100,"variant":"a"})", 5.0);

    const auto set = bb::query_samples(s.db, by({"hz"}));
    CHECK(set.boots == 5);
    CHECK(set.used == 5);
    CHECK(set.metric == "boot_seconds");
    CHECK(set.unit == "s");
    CHECK(set.seconds);
    CHECK(labels(set) == std::vector<std::string>{"hz=100", "hz=250", "hz=1000"});
    REQUIRE(set.groups.size() == 3);
    CHECK(set.groups[0].key.front().kind == AxisValue::Kind::Integer);
    CHECK(set.groups[0].key.front().integer == 100);
    CHECK(set.groups[1].values == std::vector<double>{2.0, 4.0}); // by boot id
    CHECK(set.groups[2].values == std::vector<double>{1.0, 3.0});
    CHECK(set.groups[2].samples.front().params_json == R"({"hz":1000,"variant":"a"})");
    CHECK(set.groups[2].samples.front().run_id == run);

    const auto two = bb::query_samples(s.db, by({"variant", "hz"}));
    CHECK(labels(two) == std::vector<std::string>{"variant=a hz=100", "variant=a hz=250",
                                                  "variant=a hz=1000", "variant=b hz=250",
                                                  "variant=b hz=1000"});
}

TEST_CASE("only: boots with the given values of an axis, numbers matched as text",
          "[sample_query]") {
    Store s;
    const long long run = s.run("rwsem");
    s.boot(run, R"({"variant":"unpatched","rwsem.opt_rspin":0})", 1.0);
    s.boot(run, R"({"variant":"patched","rwsem.opt_rspin":0})", 2.0);
    s.boot(run, R"({"variant":"patched","rwsem.opt_rspin":1})", 3.0);
    const long long other = s.run("rwsem");
    s.boot(other, R"({"variant":"patched","rwsem.opt_rspin":1})", 4.0);

    SampleQuery query = by({"rwsem.opt_rspin"});
    query.only = {{"variant", {"patched"}}};
    const auto set = bb::query_samples(s.db, query);
    CHECK(labels(set) == std::vector<std::string>{"rwsem.opt_rspin=0", "rwsem.opt_rspin=1"});
    REQUIRE(set.groups.size() == 2);
    CHECK(set.groups[0].values == std::vector<double>{2.0});
    CHECK(set.groups[1].values == std::vector<double>{3.0, 4.0});

    query.only = {{"rwsem.opt_rspin", {"1", "7"}}, {"run", {std::to_string(run)}}};
    const auto numeric = bb::query_samples(s.db, query);
    CHECK(numeric.boots == 1);
    CHECK(numeric.groups.at(0).values == std::vector<double>{3.0});

    // Values no selected boot has: named with the values there are, and the nearest one.
    query.only = {{"variant", {"nothing", "none"}}};
    CHECK(bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, query); }) ==
          "--only variant=nothing,none: no selected boot has variant nothing or none; its "
          "values: patched, unpatched");
    query.only = {{"variant", {"pacthed"}}};
    CHECK(bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, query); }) ==
          "--only variant=pacthed: no selected boot has variant pacthed (did you mean "
          "'patched'?); its values: patched, unpatched");
    // Values each of which some boot has, but no boot has together: the filters are named.
    query.only = {{"variant", {"unpatched"}}, {"rwsem.opt_rspin", {"1"}}};
    CHECK(bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, query); }) ==
          "no selected boot matches --only variant=unpatched --only rwsem.opt_rspin=1 (values "
          "are compared as text, e.g. hz=250 variant=stock)");
    query.only = {{R"(bad"axis)", {"1"}}};
    CHECK_THROWS_AS(bb::query_samples(s.db, query), bb::Error);
}

TEST_CASE("a dotted parameter name is one key, not a nested path", "[sample_query]") {
    Store s;
    const long long run = s.run("");
    s.boot(run, R"({"srcutree.srcu_max_nodelay_phase":100})", 1.5);
    s.boot(run, R"({"srcutree.srcu_max_nodelay_phase":1000})", 2.5);
    s.boot(run, R"({"srcutree":{"srcu_max_nodelay_phase":7}})", 3.5);
    const auto set = bb::query_samples(s.db, by({"srcutree.srcu_max_nodelay_phase"}));
    CHECK(labels(set) == std::vector<std::string>{"srcutree.srcu_max_nodelay_phase=100",
                                                  "srcutree.srcu_max_nodelay_phase=1000",
                                                  "srcutree.srcu_max_nodelay_phase=(none)"});
    CHECK(set.groups.back().key.front().kind == AxisValue::Kind::Null);
    CHECK(set.groups.back().values == std::vector<double>{3.5});
}

TEST_CASE("failed and foreign-loaded boots are counted, used only on request", "[sample_query]") {
    Store s;
    const long long run = s.run("e");
    const std::string p = R"({"variant":"x"})";
    s.boot(run, p, 1.0);
    s.boot(run, p, 2.0, BootOutcome::Ok, 0.25); // at the limit: still clean
    s.boot(run, p, 3.0, BootOutcome::Ok, 0.26); // above: contaminated
    s.boot(run, p, std::nullopt, BootOutcome::Panic);
    s.boot(run, p, 9.0, BootOutcome::Timeout);          // hung after the marker: has a time
    s.boot(run, p, std::nullopt, BootOutcome::Ok);      // never reached the marker
    s.boot(run, p, 4.0, BootOutcome::Ok, std::nullopt); // load unknown: clean

    const auto set = bb::query_samples(s.db, by({"variant"}));
    REQUIRE(set.groups.size() == 1);
    const auto& group = set.groups.front();
    CHECK(group.values == std::vector<double>{1.0, 2.0, 4.0});
    CHECK(group.failed == 2);
    CHECK(group.loaded == 1);
    CHECK(group.no_value == 1);
    CHECK(group.samples.size() == 7);
    CHECK(set.used == 3);
    CHECK(group.samples[2].use == Sample::Use::Loaded);
    CHECK(group.samples[3].use == Sample::Use::Failed);
    CHECK(group.samples[3].outcome == "panic");
    CHECK(group.samples[4].use == Sample::Use::Failed);
    CHECK(group.samples[5].use == Sample::Use::NoValue);
    CHECK(bb::to_string(Sample::Use::Loaded) == "loaded");

    auto query = by({"variant"});
    query.include_failed = true;
    const auto failed = bb::query_samples(s.db, query);
    CHECK(failed.groups.front().values == std::vector<double>{1.0, 2.0, 9.0, 4.0});
    CHECK(failed.groups.front().failed == 1); // the panic: no value to use
    CHECK(failed.groups.front().loaded == 1); // --include-failed does not take loaded boots
    CHECK(failed.groups.front().used_failed == 1);
    CHECK(failed.groups.front().used_loaded == 0);

    query.include_loaded = true;
    const auto all = bb::query_samples(s.db, query);
    CHECK(all.groups.front().values == std::vector<double>{1.0, 2.0, 3.0, 9.0, 4.0});
    CHECK(all.groups.front().failed == 1);
    CHECK(all.groups.front().loaded == 0);
    CHECK(all.groups.front().no_value == 1);
    CHECK(all.groups.front().used_failed == 1);
    CHECK(all.groups.front().used_loaded == 1);

    query.include_failed = false;
    const auto loaded = bb::query_samples(s.db, query);
    CHECK(loaded.groups.front().values == std::vector<double>{1.0, 2.0, 3.0, 4.0});
    CHECK(loaded.groups.front().failed == 2);
    CHECK(loaded.groups.front().used_loaded == 1);

    // The flag the runner stored (schema 8) decides, whatever the load: a sample run after a
    // wait for a quiet host timed out, and one under the limit in force (here 1.0).
    query.include_failed = false;
    query.include_loaded = false;
    s.boot(run, p, 5.0, BootOutcome::Ok, 0.05, {}, true);
    s.boot(run, p, 6.0, BootOutcome::Ok, 0.50, {}, false);
    const auto stored = bb::query_samples(s.db, query);
    CHECK(stored.groups.front().loaded == 2);
    CHECK(stored.groups.front().values == std::vector<double>{1.0, 2.0, 4.0, 6.0});
}

TEST_CASE("a metrics-table metric: first value per boot, its unit, missing counted",
          "[sample_query]") {
    Store s;
    const long long run = s.run("e");
    s.boot(run, R"({"v":"a"})", 1.0, BootOutcome::Ok, 0.0,
           {{"max_phase", 100, "count", 0.5}, {"mem_free", 5, "kB", 0.6}});
    s.boot(run, R"({"v":"a"})", 1.0, BootOutcome::Ok, 0.0,
           {{"max_phase", 300, "count", 0.5}, {"max_phase", 999, "count", 0.7}});
    s.boot(run, R"({"v":"a"})", 1.0); // the guest did not print it
    auto query = by({"v"});
    query.metric = "max_phase";
    const auto set = bb::query_samples(s.db, query);
    CHECK(set.unit == "count");
    CHECK_FALSE(set.seconds);
    REQUIRE(set.groups.size() == 1);
    CHECK(set.groups.front().values == std::vector<double>{100, 300});
    CHECK(set.groups.front().no_value == 1);

    query.metric = "guest_marker_seconds"; // a timing column: nobody stored it here
    const auto guest = bb::query_samples(s.db, query);
    CHECK(guest.seconds);
    CHECK(guest.groups.front().no_value == 3);

    query.metric = "max_phse";
    const auto message =
        bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, query); });
    CHECK(message.find("did you mean 'max_phase'") != std::string::npos);
    CHECK(message.find("mem_free") != std::string::npos);
}

TEST_CASE("filters: experiment, runs, and errors naming what exists", "[sample_query]") {
    Store s;
    const long long first = s.run("srcu-storm");
    const long long second = s.run("srcu-storm");
    const long long other = s.run("smoke");
    const long long adhoc = s.run("");
    s.boot(first, R"({"v":"a"})", 1.0);
    s.boot(second, R"({"v":"a"})", 2.0);
    s.boot(other, R"({"v":"a"})", 3.0);
    s.boot(adhoc, R"({"v":"a"})", 4.0);

    auto query = by({"run"});
    CHECK(bb::query_samples(s.db, query).boots == 4);
    query.experiment = "srcu-storm";
    auto set = bb::query_samples(s.db, query);
    CHECK(labels(set) == std::vector<std::string>{"run=" + std::to_string(first),
                                                  "run=" + std::to_string(second)});

    query.experiment.clear();
    query.run_ids = {second, adhoc};
    set = bb::query_samples(s.db, query);
    REQUIRE(set.groups.size() == 2);
    CHECK(set.groups[0].values == std::vector<double>{2.0});
    CHECK(set.groups[1].values == std::vector<double>{4.0});

    query.experiment = "smoke";
    CHECK(bb::query_samples(s.db, query).boots == 0); // no run of "smoke" among those ids

    query.experiment = "srcu-strom";
    query.run_ids.clear();
    auto message = bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, query); });
    CHECK(message.find("did you mean 'srcu-storm'") != std::string::npos);

    query.experiment = "x' OR '1'='1"; // bound, never spliced: just an unknown name
    message = bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, query); });
    CHECK(message.find("no experiment named") != std::string::npos);

    query.experiment.clear();
    query.run_ids = {first, 4242};
    message = bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, query); });
    CHECK(message.find("no run 4242") != std::string::npos);
}

TEST_CASE("an axis no boot has is an error with a suggestion", "[sample_query]") {
    Store s;
    const long long run = s.run("e");
    s.boot(run, R"({"hz":250,"variant":"stock"})", 1.0);
    const auto message =
        bb::test::thrown_message<bb::Error>([&] { bb::query_samples(s.db, by({"hzz"})); });
    CHECK(message.find("'hzz'") != std::string::npos);
    CHECK(message.find("did you mean 'hz'") != std::string::npos);
    CHECK(message.find("variant") != std::string::npos);
    // A quote inside the JSON label cannot break out of it: SQLite sees a plain unknown key.
    CHECK_THROWS_AS(bb::query_samples(s.db, by({"hz') OR 1=1 --"})), bb::Error);
}

TEST_CASE("default grouping is per cell, the set reads from a read-only handle", "[sample_query]") {
    Store s;
    const long long run = s.run("e");
    s.boot(run, R"({"v":"b"})", 2.0);
    s.boot(run, R"({"v":"a"})", 1.0);
    s.boot(run, R"({"v":"a"})", 1.5);
    bb::Database readonly(s.db.path(), bb::Database::Mode::ReadOnly);
    const auto set = bb::query_samples(readonly, SampleQuery{});
    CHECK(set.axes == std::vector<std::string>{"cell"});
    CHECK(labels(set) == std::vector<std::string>{R"({"v":"a"})", R"({"v":"b"})"});
    CHECK(set.groups.front().values == std::vector<double>{1.0, 1.5});
}

TEST_CASE("summarize_groups: summary and median interval per group", "[sample_query]") {
    Store s;
    const long long run = s.run("e");
    for (double value : {3.0, 1.0, 2.0, 5.0, 4.0}) {
        s.boot(run, R"({"v":"a"})", value);
    }
    s.boot(run, R"({"v":"b"})", std::nullopt, BootOutcome::Crash);
    const auto set = bb::query_samples(s.db, by({"v"}));
    const auto statistics = bb::summarize_groups(set);
    REQUIRE(statistics.size() == 2);
    CHECK(statistics[0].group == &set.groups[0]);
    CHECK(statistics[0].summary.n == 5);
    CHECK(statistics[0].summary.mean == 3.0);
    CHECK(statistics[0].median.median == 3.0);
    CHECK(statistics[0].median.ci.contains(3.0));
    CHECK(statistics[1].summary.n == 0);
    CHECK(std::isnan(statistics[1].median.median));
}

TEST_CASE("two runs compared group by group", "[sample_query]") {
    Store s;
    const long long a = s.run("e");
    const long long b = s.run("e");
    const std::vector<double> base{10.0, 10.2, 9.9, 10.1, 10.0, 9.8};
    for (double value : base) {
        s.boot(a, R"({"v":"same"})", value);
        s.boot(b, R"({"v":"same"})", value + 0.01);
        s.boot(a, R"({"v":"slow"})", value);
        s.boot(b, R"({"v":"slow"})", value + 2.0);
        s.boot(a, R"({"v":"fast"})", value);
        s.boot(b, R"({"v":"fast"})", value - 2.0);
        s.boot(a, R"({"v":"gone"})", value);
    }
    s.boot(b, R"({"v":"new"})", 1.0);
    s.boot(a, R"({"v":"thin"})", 1.0);
    s.boot(b, R"({"v":"thin"})", 1.0);

    auto query = by({"v"});
    query.run_ids = {a};
    const auto set_a = bb::query_samples(s.db, query);
    query.run_ids = {b};
    const auto set_b = bb::query_samples(s.db, query);
    const auto comparison = bb::compare_sample_sets(set_a, set_b);
    CHECK(labels(set_a) ==
          std::vector<std::string>{"v=fast", "v=gone", "v=same", "v=slow", "v=thin"});
    REQUIRE(comparison.groups.size() == 6);
    std::vector<std::string> verdicts;
    for (const auto& group : comparison.groups) {
        verdicts.emplace_back(bb::group_label(comparison.axes, group.key) + ":" +
                              std::string(bb::to_string(group.comparison.verdict)));
    }
    CHECK(verdicts == std::vector<std::string>{"v=fast:faster", "v=gone:insufficient data",
                                               "v=new:insufficient data",
                                               "v=same:no difference shown", "v=slow:slower",
                                               "v=thin:insufficient data"});
    CHECK(comparison.slower == 1);
    CHECK(comparison.faster == 1);
    CHECK(comparison.no_change == 1);
    CHECK(comparison.insufficient == 3);
    CHECK(comparison.only_a == 1);
    CHECK(comparison.only_b == 1);
    const auto& gone = comparison.groups[1];
    CHECK(gone.a != nullptr);
    CHECK(gone.b == nullptr);
    CHECK(gone.comparison.n_a == 6);
    CHECK(gone.comparison.median_a == 10.0);
    const auto& slow = comparison.groups[4].comparison;
    CHECK(slow.difference == Approx(2.0));
    CHECK(slow.difference_ci.contains(2.0));
    CHECK(slow.p_value < 0.05);
    CHECK(slow.p_adjusted >= slow.p_value); // Holm over the three groups in both runs
    CHECK(slow.method.find("Hodges-Lehmann") != std::string::npos);
    // Descriptive geometric mean of the three comparable groups' B/A ratios.
    CHECK(comparison.geomean_groups == 3);
    CHECK(comparison.geomean_ratio ==
          Approx(std::cbrt(comparison.groups[0].comparison.ratio *
                           comparison.groups[3].comparison.ratio * slow.ratio)));
    CHECK(comparison.geomean_ratio ==
          Approx(std::cbrt(10.01 / 10.0 * 12.0 / 10.0 * 8.0 / 10.0)).epsilon(1e-2));

    // A threshold above 25 % turns both significant changes into "no change".
    const auto tolerant = bb::compare_sample_sets(set_a, set_b, {}, 0.25);
    CHECK(tolerant.slower == 0);
    CHECK(tolerant.faster == 0);
    CHECK(tolerant.no_change == 3);

    CHECK(bb::describe_run(s.db, a).experiment == "e");
    CHECK(bb::describe_run(s.db, a).host == "bench-01");
    CHECK_THROWS_AS(bb::describe_run(s.db, 999), bb::Error);
}

// Issue 48 item 6: a kernel that panics on every boot passed compare as "insufficient data",
// exit 0, JUnit skipped. Failed boots are a result.
TEST_CASE("a group whose B boots fail where A's did not fails the comparison", "[sample_query]") {
    Store s;
    const long long a = s.run("e");
    const long long b = s.run("e");
    for (int i = 0; i < 5; ++i) {
        s.boot(a, R"({"v":"panics"})", 10.0 + 0.1 * i);
        s.boot(b, R"({"v":"panics"})", std::nullopt, BootOutcome::Panic);
        s.boot(a, R"({"v":"one"})", 10.0 + 0.1 * i);
        s.boot(b, R"({"v":"one"})", i == 0 ? std::nullopt : std::optional(10.0 + 0.1 * i),
               i == 0 ? BootOutcome::Timeout : BootOutcome::Ok);
        s.boot(a, R"({"v":"both"})", i < 2 ? std::nullopt : std::optional(10.0),
               i < 2 ? BootOutcome::Crash : BootOutcome::Ok);
        s.boot(b, R"({"v":"both"})", i < 3 ? std::nullopt : std::optional(10.0),
               i < 3 ? BootOutcome::Crash : BootOutcome::Ok);
    }
    auto query = by({"v"});
    query.run_ids = {a};
    const auto set_a = bb::query_samples(s.db, query);
    query.run_ids = {b};
    const auto set_b = bb::query_samples(s.db, query);
    const auto comparison = bb::compare_sample_sets(set_a, set_b);
    REQUIRE(comparison.groups.size() == 3);
    const auto& both = comparison.groups[0];   // 2 of 5 vs 3 of 5: not shown worse
    const auto& one = comparison.groups[1];    // 0 of 5 vs 1 of 5: B fails where A did not
    const auto& panics = comparison.groups[2]; // 0 of 5 vs 5 of 5
    CHECK(panics.comparison.verdict == bb::Comparison::Verdict::Insufficient);
    CHECK(panics.fails_more);
    CHECK(panics.failed_b == 5);
    CHECK(panics.boots_b == 5);
    CHECK(panics.failed_a == 0);
    CHECK(panics.failure_p == Approx(1.0 / 252)); // C(10,5) = 252
    CHECK(one.fails_more);
    CHECK(one.failure_p == Approx(0.5));
    CHECK_FALSE(both.fails_more);
    CHECK(comparison.failing == 2);
    const std::string text = bb::render_comparison_text(comparison, "A", "B");
    CHECK_THAT(text, Catch::Contains("2 groups where B's boots fail more (a failure)"));
    CHECK_THAT(text, Catch::Contains("B's boots failed: v=panics: 5 of 5 in B, 0 of 5 in A"));
    const std::string xml = bb::render_junit(comparison, "t");
    CHECK_THAT(xml, Catch::Contains(R"(failures="2")"));
    CHECK_THAT(xml, Catch::Contains(R"(<failure type="failed boots")"));
}
