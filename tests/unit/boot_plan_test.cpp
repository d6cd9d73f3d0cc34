// `bootbench plan`'s arithmetic (report/boot_plan.h): Holm's first level, the family size of a
// file, the pilot's spread, the wall time.
#include "experiment/experiment_parser.h"
#include "report/boot_plan.h"
#include "stats/sample_size.h"
#include "test_store.h"

#include <catch2/catch.hpp>
#include <cmath>

using bb::test::Store;

namespace {

std::string experiment(const std::string& family) {
    return "name: p\nkernel:\n  arch: arm64\n  variants: [{name: a}, {name: b}, {name: c}]\n"
           "axes:\n  hz: [100, 250]\n  smp: [1, 2]\n"
           "analysis: {compare: {variant: [a, b, c]}, family: " +
           family + "}\n";
}

} // namespace

TEST_CASE("plan: the family is every (condition, pair), or the pairs of one condition", "[plan]") {
    // 2 pairs (b and c against a) in 2 × 2 conditions.
    CHECK(bb::family_size(bb::parse_experiment(experiment("all"), "p.yaml")) == 8);
    CHECK(bb::family_size(bb::parse_experiment(experiment("condition"), "p.yaml")) == 2);
}

TEST_CASE("plan: boots at α / family, wall time = median wall × cells × boots / slots", "[plan]") {
    bb::PlanRequest request;
    request.sigma_log = 0.05;
    request.effect = 0.05;
    request.alpha = 0.05;
    request.family = 1;
    request.median_wall_s = 10;
    request.cells = 4;
    request.slots = 2;
    const bb::BootPlan one = bb::plan_boots(request);
    CHECK(one.alpha_per_test == 0.05);
    CHECK(one.size.boots_per_cell == 19); // docs/reporting.md: σ 0.05 and 5 % need 19
    CHECK(one.wall_seconds == Approx(10.0 * 4 * 19 / 2));
    request.family = 4;
    const bb::BootPlan four = bb::plan_boots(request);
    CHECK(four.alpha_per_test == Approx(0.0125));
    bb::stats::SampleSizeOptions options;
    options.alpha = 0.0125;
    CHECK(four.size.boots_per_cell ==
          bb::stats::plan_boots_per_cell(0.05, 1.05, options).boots_per_cell);
    CHECK(four.size.boots_per_cell > one.size.boots_per_cell);
}

TEST_CASE("plan: a half-width plan keeps α whole, the verdict's interval level", "[plan]") {
    bb::PlanRequest request;
    request.sigma_log = 0.05;
    request.half_width = 0.05;
    request.alpha = 0.05;
    request.family = 4; // Holm adjusts p-values, not the intervals the goal is about
    request.median_wall_s = 10;
    const bb::BootPlan plan = bb::plan_boots(request);
    CHECK(plan.alpha_per_test == 0.05);
    bb::stats::SampleSizeOptions options;
    options.alpha = 0.05;
    CHECK(plan.size.boots_per_cell ==
          bb::stats::plan_boots_for_half_width(0.05, 0.05, options).boots_per_cell);
    CHECK(plan.wall_seconds == Approx(10.0 * plan.size.boots_per_cell));
}

TEST_CASE("plan: the pilot's spread is the largest cell's MAD σ of the logs", "[plan]") {
    Store s;
    const long long run = s.run("p");
    for (const double value : {1.0, 1.1, 1.2, 1.3, 1.4}) {
        s.boot(run, "{\"variant\":\"a\"}", value);
        s.boot(run, "{\"variant\":\"b\"}", value * value); // twice the spread on the log scale
    }
    s.boot(run, "{\"variant\":\"b\"}", 50.0, bb::BootOutcome::Timeout); // left out
    const bb::PilotSpread spread = bb::pilot_spread(s.db, run, bb::Endpoint{});
    REQUIRE(spread.cell_sigma.size() == 2);
    const double sigma_a = bb::stats::mad_sigma_log(std::vector<double>{1.0, 1.1, 1.2, 1.3, 1.4});
    CHECK(spread.cell_sigma[0].second == Approx(sigma_a));
    CHECK(spread.sigma == Approx(2 * sigma_a));
    CHECK(spread.boots == 10);
    CHECK(spread.median_wall_s == 9.5);
    CHECK_THROWS_WITH(bb::pilot_spread(s.db, s.run("empty"), bb::Endpoint{}),
                      Catch::Contains("no cell has 2 used boots"));
}

TEST_CASE("plan: a pilot whose cells' MADs are 0 is planned for the pooled SD", "[plan]") {
    Store s;
    const long long run = s.run("p");
    for (const char* cell : {"{\"variant\":\"a\"}", "{\"variant\":\"b\"}"}) {
        for (const double value : {1.0, 1.0, 2.0}) { // MAD 0, yet the boots differ
            s.boot(run, cell, value);
        }
    }
    const bb::PilotSpread spread = bb::pilot_spread(s.db, run, bb::Endpoint{});
    const double pooled = bb::stats::pooled_sd_log(
        std::vector<std::vector<double>>{{1.0, 1.0, 2.0}, {1.0, 1.0, 2.0}});
    CHECK(spread.cell_sigma.at(0).second == 0);
    CHECK(spread.pooled_sigma == Approx(pooled));
    CHECK(spread.sigma == Approx(pooled));
    CHECK(spread.sigma > 0.3);
}
