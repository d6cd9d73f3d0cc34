// The verdict of a declared analysis, computed from a database written by the store (report/
// verdict.h): exact p-values, Holm over the declared family, pairing by round, left-out boots.
#include "experiment/analysis.h"
#include "report/verdict.h"
#include "test_store.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using bb::test::Store;

namespace {

bb::Analysis phase_analysis(bool paired, bb::HolmFamily family = bb::HolmFamily::All) {
    bb::Analysis analysis;
    analysis.axis = "phase";
    analysis.pairs = {{"100", "1000"}};
    analysis.paired = paired;
    analysis.family = family;
    return analysis;
}

std::string params(int hz, int phase) {
    return "{\"hz\":" + std::to_string(hz) + ",\"phase\":" + std::to_string(phase) + "}";
}

// One boot per value, rounds 0, 1, … in order.
void boots(Store& s, long long run, const std::string& cell, const std::vector<double>& values) {
    for (size_t round = 0; round < values.size(); ++round) {
        bb::BootRecord record = s.record(run, cell, values[round]);
        record.repeat_index = static_cast<int>(round);
        s.store.insert_boot(record);
    }
}

// 4 vs 4, completely separated: the exact two-sided Mann–Whitney p is 2 / C(8, 4) = 1/35.
long long separated_run(Store& s, const bb::Analysis& analysis) {
    const long long run = s.run("phase", bb::analysis_to_json(analysis).dump());
    for (const int hz : {100, 250}) {
        boots(s, run, params(hz, 100), {1.0, 1.1, 1.2, 1.3});
        boots(s, run, params(hz, 1000), {2.0, 2.1, 2.2, 2.3});
    }
    return run;
}

} // namespace

TEST_CASE("verdict: exact Mann-Whitney p, Holm over every comparison of the file", "[verdict]") {
    Store s;
    const long long run = separated_run(s, phase_analysis(false));
    const bb::VerdictTable table = bb::compute_verdict(s.db, run);
    REQUIRE(table.rows.size() == 2);
    for (const auto& row : table.rows) {
        CHECK(row.n_a == 4);
        CHECK(row.n_b == 4);
        CHECK(row.ratio.p_value == Approx(1.0 / 35));
        CHECK(row.ratio.estimate > 1.6);
        // Two comparisons: Holm doubles the smallest p, which no longer reaches 0.05. The words
        // say so (issue 48 item 9: "no difference shown" beside an interval excluding 1).
        CHECK(row.p_adjusted == Approx(2.0 / 35));
        CHECK(row.decision == "not decided at α 0.05 after Holm (p 0.0571)");
    }
    CHECK(table.rows[0].condition == "hz=100");
    CHECK(table.rows[1].condition == "hz=250");
}

TEST_CASE("verdict: Holm within each condition decides each alone", "[verdict]") {
    Store s;
    const long long run = separated_run(s, phase_analysis(false, bb::HolmFamily::Condition));
    for (const auto& row : bb::compute_verdict(s.db, run).rows) {
        CHECK(row.p_adjusted == Approx(1.0 / 35));
        CHECK(row.decision == "B slower");
    }
}

TEST_CASE("verdict: paired by round uses the signed-rank test and counts unpaired boots",
          "[verdict]") {
    Store s;
    bb::Analysis analysis = phase_analysis(true);
    const long long run = s.run("phase", bb::analysis_to_json(analysis).dump());
    // B is A × 0.95 in each of 8 rounds, plus a ninth round of B alone.
    boots(s, run, params(250, 100), {1.30, 1.10, 1.42, 1.21, 1.05, 1.33, 1.18, 1.27});
    boots(s, run, params(250, 1000),
          {1.235, 1.045, 1.349, 1.1495, 0.9975, 1.2635, 1.121, 1.2065, 1.5});
    const auto rows = bb::compute_verdict(s.db, run).rows;
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].condition == "all boots");
    CHECK(rows[0].n_a == 8);
    CHECK(rows[0].unpaired == 1);
    CHECK(rows[0].ratio.method.find("signed-rank") != std::string::npos);
    CHECK(rows[0].ratio.estimate == Approx(0.95));
    CHECK(rows[0].ratio.p_value == Approx(2.0 / 256)); // all 8 differences negative
    CHECK(rows[0].decision == "B faster");
}

TEST_CASE("verdict: failed and loaded boots are left out and counted, 3 vs 3 is insufficient",
          "[verdict]") {
    Store s;
    const long long run = s.run("phase", bb::analysis_to_json(phase_analysis(false)).dump());
    boots(s, run, params(250, 100), {1.0, 1.1, 1.2});
    boots(s, run, params(250, 1000), {2.0, 2.1, 2.2});
    s.boot(run, params(250, 1000), 9.0, bb::BootOutcome::Timeout);
    s.boot(run, params(250, 100), 9.0, bb::BootOutcome::Ok, 0.9, {}, true);
    const bb::VerdictTable table = bb::compute_verdict(s.db, run);
    REQUIRE(table.rows.size() == 1);
    const auto& row = table.rows[0];
    CHECK(row.n_a == 3);
    CHECK(row.n_b == 3);
    CHECK(row.left_out_a == 1);
    CHECK(row.left_out_b == 1);
    CHECK(row.decision.rfind("insufficient: ", 0) == 0);
    const std::string text = bb::render_verdict(table);
    INFO(text);
    CHECK(text.find("left out (failed, loaded or without the endpoint; counted per "
                    "comparison): 2") != std::string::npos);
    CHECK(text.find("3/3") != std::string::npos);
}

TEST_CASE("verdict: a run without an analysis is an error naming it", "[verdict]") {
    Store s;
    const long long run = s.run("plain");
    CHECK_THROWS_WITH(bb::compute_verdict(s.db, run),
                      Catch::Contains("run 1 (plain) declares no analysis"));
    CHECK(bb::runs_with_analysis(s.db, {}, "").empty());
    const long long analysed = s.run("phase", bb::analysis_to_json(phase_analysis(false)).dump());
    CHECK(bb::runs_with_analysis(s.db, {}, "") == std::vector<long long>{analysed});
    CHECK(bb::runs_with_analysis(s.db, {run}, "").empty());
}

TEST_CASE("verdict: conditions come in numeric order, hz=250 before hz=1000", "[verdict]") {
    Store s;
    const bb::Analysis analysis = phase_analysis(false);
    const long long run = s.run("phase", bb::analysis_to_json(analysis).dump());
    for (const int hz : {1000, 100, 250}) {
        boots(s, run, params(hz, 100), {1.0, 1.1, 1.2});
        boots(s, run, params(hz, 1000), {2.0, 2.1, 2.2});
    }
    const bb::VerdictTable table = bb::compute_verdict(s.db, run);
    REQUIRE(table.rows.size() == 3);
    CHECK(table.rows[0].condition == "hz=100");
    CHECK(table.rows[1].condition == "hz=250");
    CHECK(table.rows[2].condition == "hz=1000");
}

// Issue 32, item 10: a boot whose params_json was damaged fell out of its cell, and the verdict
// still said "left out: 0"; a stored analysis that is not JSON was an internal error (exit 3).
TEST_CASE("verdict: damaged stored rows are errors naming what is damaged", "[verdict]") {
    Store s;
    const long long run = separated_run(s, phase_analysis(false));
    s.boot(run, "{\"hz\": 250, \"phase\"", 1.05);
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::compute_verdict(s.db, run); }),
               Catch::Contains("params_json is not a JSON object"));

    const long long garbled = s.run("phase", std::string("{not json"));
    boots(s, garbled, params(250, 100), {1.0});
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::compute_verdict(s.db, garbled); }),
               Catch::Contains("stored analysis is not JSON"));

    auto alpha_two = bb::analysis_to_json(phase_analysis(false));
    alpha_two["alpha"] = 2;
    const long long wide = s.run("phase", alpha_two.dump());
    boots(s, wide, params(250, 100), {1.0});
    CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::compute_verdict(s.db, wide); }),
               Catch::Contains("is not a significance level"));
}

TEST_CASE("verdict: a declared trend is tested per condition, an anchor outside it is not",
          "[verdict]") {
    Store s;
    bb::Analysis analysis;
    analysis.axis = "phase";
    analysis.trend = {"100", "1000", "10000"};
    analysis.alpha = 0.01;
    const long long run = s.run("phase", bb::analysis_to_json(analysis).dump());
    // hz=250: three values falling with the phase, 4 boots each, no ties: the exact JT p is tiny.
    boots(s, run, params(250, 100), {3.0, 3.1, 3.2, 3.3});
    boots(s, run, params(250, 1000), {2.0, 2.1, 2.2, 2.3});
    boots(s, run, params(250, 10000), {1.0, 1.1, 1.2, 1.3});
    // hz=100: only the anchor value.
    boots(s, run, params(100, 1000), {2.0, 2.1});
    const bb::VerdictTable table = bb::compute_verdict(s.db, run);
    REQUIRE(table.rows.size() == 2);
    const bb::VerdictRow& anchor = table.rows[0];
    const bb::VerdictRow& sweep = table.rows[1];
    CHECK(anchor.condition == "hz=100");
    CHECK(anchor.decision == "not tested: holds 1 of the 3 values");
    CHECK(sweep.condition == "hz=250");
    CHECK(sweep.trend_n == std::vector<int>{4, 4, 4});
    CHECK(sweep.trend_medians[0] == Approx(3.15));
    CHECK(sweep.trend.estimate == 0);           // no pair rises along the order
    CHECK(sweep.trend_null_mean == Approx(24)); // 3 pairs of groups × 16 / 2
    CHECK(sweep.trend.p_value < 0.001);
    CHECK(sweep.p_adjusted == Approx(sweep.trend.p_value)); // the anchor is not a test
    CHECK(sweep.decision == "decreasing");
    const std::string text = bb::render_verdict(table);
    INFO(text);
    CHECK(text.find("ordered trend over phase (100 < 1000 < 10000)") != std::string::npos);
    CHECK(text.find("Holm over the 1 test(s)") != std::string::npos);
    CHECK(text.find("hz=250: medians 100 3.150 s (n 4), 1000 2.150 s (n 4), 10000 1.150 s (n 4)") !=
          std::string::npos);
    CHECK(bb::verdict_json(table)["trends"][1]["decision"] == "decreasing");
}

TEST_CASE("verdict: a premise holds only when its whole interval lies within the margin",
          "[verdict]") {
    bb::Analysis analysis = phase_analysis(false);
    const auto row_with = [](double low, double estimate, double high, double p_holm) {
        bb::VerdictRow row;
        row.ratio.estimate = estimate;
        row.ratio.interval = {low, high};
        row.ratio.p_value = p_holm;
        row.ratio.confidence = 0.95;
        row.p_adjusted = p_holm;
        return row;
    };
    std::vector<bb::VerdictRow> rows{
        row_with(0.99, 1.00, 1.015, 0.8),    row_with(0.97, 0.99, 1.01, 0.4),
        row_with(0.90, 0.94, 0.97, 0.001),   row_with(1.005, 1.01, 1.019, 0.01),
        row_with(1.001, 1.015, 1.025, 0.01), row_with(1.021, 1.03, 1.04, 0.001)};
    bb::decide_premise(analysis, 0.02, rows);
    CHECK(rows[0].decision == "holds: within ±2 %");
    CHECK(rows[1].decision == "not shown within ±2 %");              // 0.97 < 1 / 1.02
    CHECK(rows[2].decision == "fails: moved beyond ±2 % (B lower)"); // 0.97 < 1 / 1.02
    // Significant but inside the margin: the premise holds (a move too small to matter).
    CHECK(rows[3].decision == "holds: within ±2 %");
    // Significant, but a move smaller than the margin is still possible: not a failure.
    CHECK(rows[4].decision == "not shown within ±2 % (a move is significant)");
    CHECK(rows[5].decision == "fails: moved beyond ±2 % (B higher)");
}

TEST_CASE("verdict: declared secondary endpoints are computed from the same boots and shown "
          "after the primary",
          "[verdict]") {
    Store s;
    bb::Analysis analysis = phase_analysis(false, bb::HolmFamily::Condition);
    analysis.endpoint = {bb::EndpointKind::Metric, "launch_relative"};
    analysis.secondary = {{{bb::EndpointKind::BootSeconds, ""}, 0.5}};
    const long long run = s.run("phase", bb::analysis_to_json(analysis).dump());
    // boot_seconds: A 1.0-1.3, B 1.05-1.35 (the premise holds within ±50 %); the primary
    // metric is absent, so the primary is insufficient and the secondary still answers.
    boots(s, run, params(250, 100), {1.0, 1.1, 1.2, 1.3});
    boots(s, run, params(250, 1000), {1.05, 1.15, 1.25, 1.35});
    const bb::VerdictTable table = bb::compute_verdict(s.db, run);
    REQUIRE(table.secondary.size() == 1);
    CHECK(table.rows[0].decision.rfind("insufficient", 0) == 0);
    const bb::VerdictTable& premise = table.secondary[0];
    REQUIRE(premise.rows.size() == 1);
    CHECK(premise.within == Approx(0.5));
    CHECK(premise.rows[0].n_a == 4);
    CHECK(premise.rows[0].decision == "holds: within ±50 %");
    const std::string text = bb::render_verdict(table);
    INFO(text);
    CHECK(text.find("secondary endpoint boot_seconds, declared with run 1's analysis") !=
          std::string::npos);
    CHECK(text.find("holds: within ±50 %") != std::string::npos);
    CHECK(text.find("verdict of run 1") < text.find("secondary endpoint"));
    const std::string csv = bb::render_verdict(table, bb::ReportFormat::Csv);
    CHECK(csv.rfind("endpoint,", 0) == 0);
    CHECK(csv.find("\nboot_seconds,") != std::string::npos);
    const auto json = bb::verdict_json(table);
    REQUIRE(json.at("secondary").size() == 1);
    CHECK(json.at("secondary")[0].at("within") == Approx(0.5));
    CHECK(json.at("secondary")[0].at("comparisons")[0].at("decision") == "holds: within ±50 %");
}

TEST_CASE("verdict: a secondary endpoint may name a boot's timing column", "[verdict]") {
    Store s;
    bb::Analysis analysis = phase_analysis(false, bb::HolmFamily::Condition);
    analysis.secondary = {{{bb::EndpointKind::Metric, "guest_marker_seconds"}, std::nullopt}};
    const long long run = s.run("phase", bb::analysis_to_json(analysis).dump());
    // The guest's uptime at the marker is not a guest metric but a column of boots: before,
    // the verdict found no value for it and reported 0 pairs.
    for (const auto& [cell, values] :
         {std::pair{params(250, 100), std::vector{1.0, 1.1, 1.2, 1.3}},
          std::pair{params(250, 1000), std::vector{2.0, 2.1, 2.2, 2.3}}}) {
        for (size_t round = 0; round < values.size(); ++round) {
            bb::BootRecord record = s.record(run, cell, values[round]);
            record.repeat_index = static_cast<int>(round);
            record.guest_marker_seconds = values[round] / 2;
            s.store.insert_boot(record);
        }
    }
    const bb::VerdictTable table = bb::compute_verdict(s.db, run);
    REQUIRE(table.secondary.size() == 1);
    REQUIRE(table.secondary[0].rows.size() == 1);
    CHECK(table.secondary[0].rows[0].n_a == 4);
    CHECK(table.secondary[0].rows[0].n_b == 4);
    CHECK(table.secondary[0].rows[0].decision.rfind("insufficient", 0) != 0);
}
