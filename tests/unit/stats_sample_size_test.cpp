// The plan's boots per cell: the power it promises holds on fresh simulations (another seed),
// and one boot fewer falls short of it or near it.
#include "stats/sample_size.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <vector>

TEST_CASE("plan: boots per cell reach the power they promise", "[.][stats][calibration]") {
    for (const auto& [sigma, ratio] :
         std::vector<std::pair<double, double>>{{0.05, 1.05}, {0.02, 1.03}, {0.10, 1.05}}) {
        const auto plan = bb::stats::plan_boots_per_cell(sigma, ratio);
        REQUIRE(plan.insufficient.empty());
        bb::stats::SampleSizeOptions fresh;
        fresh.seed = 777;
        fresh.simulations = 4'000;
        const double power = bb::stats::simulated_power(plan.boots_per_cell, sigma, ratio, fresh);
        const double fewer =
            bb::stats::simulated_power(plan.boots_per_cell - 1, sigma, ratio, fresh);
        // The normal-theory n for a t-test, divided by the Mann–Whitney efficiency 3/π.
        const double z = 1.959964 + 0.841621;
        const double theory = 2 * z * z * sigma * sigma / std::pow(std::log(ratio), 2) / (3 / M_PI);
        std::cout << fmt::format(
            "[stats] plan sigma {:.2f} ratio {:.2f}: {} boots per cell, power "
            "{:.1f} % (fresh seed {:.1f} %, one fewer {:.1f} %), theory {:.1f}\n",
            sigma, ratio, plan.boots_per_cell, 100 * plan.achieved_power, 100 * power, 100 * fewer,
            theory);
        CHECK(power >= 0.8 - 0.025);
        CHECK(fewer < 0.8 + 0.025);
        CHECK(std::abs(plan.boots_per_cell - theory) <= 0.2 * theory + 2);
    }
}

TEST_CASE("plan: MAD sigma of a pilot and impossible plans", "[stats]") {
    // logs {0, 0.1, −0.1, 0.2, −0.2}: median 0, MAD 0.1.
    std::vector<double> pilot;
    for (double log_value : {0.0, 0.1, -0.1, 0.2, -0.2}) {
        pilot.push_back(std::exp(log_value));
    }
    CHECK(bb::stats::mad_sigma_log(pilot) == Approx(0.14826));
    CHECK(std::isnan(bb::stats::mad_sigma_log(std::vector<double>{1.0})));
    CHECK_FALSE(bb::stats::plan_boots_per_cell(0.05, 1.0).insufficient.empty());
    bb::stats::SampleSizeOptions small;
    small.max_boots = 5;
    CHECK_FALSE(bb::stats::plan_boots_per_cell(0.5, 1.01, small).insufficient.empty());
}

TEST_CASE("pooled SD of logs: each group around its own mean, Σ (n − 1) degrees of freedom",
          "[stats]") {
    const double e = std::exp(1.0);
    // Logs {0, 0, 1} and {1, 1, 2}: squares 2/3 each, 4 degrees of freedom. Both MADs are 0.
    const std::vector<std::vector<double>> groups{{1.0, 1.0, e}, {e, e, e * e}};
    CHECK(bb::stats::mad_sigma_log(groups[0]) == 0);
    CHECK(bb::stats::pooled_sd_log(groups) == Approx(std::sqrt((4.0 / 3) / 4)));
    // A single value adds no degree of freedom; a non-positive value drops its group.
    const std::vector<std::vector<double>> with_unusable{{1.0, 1.0, e}, {5.0}, {0.0, 1.0}};
    CHECK(bb::stats::pooled_sd_log(with_unusable) == Approx(std::sqrt((2.0 / 3) / 2)));
    CHECK(std::isnan(bb::stats::pooled_sd_log(std::vector<std::vector<double>>{{2.0}})));
}

TEST_CASE("plan: pairs pay for the signed-rank test's coarse steps", "[stats]") {
    // A huge effect: Mann–Whitney separates 4 vs 4 (min two-sided p = 2/70 = 0.029), but the
    // signed-rank test needs 6 pairs before any p can reach 0.05 (min p with n pairs = 2/2^n).
    bb::stats::SampleSizeOptions options;
    options.simulations = 200;
    const auto unpaired = bb::stats::plan_boots_per_cell(0.01, 2.0, options);
    options.paired = true;
    const auto paired = bb::stats::plan_boots_per_cell(0.01, 2.0, options);
    CHECK(unpaired.boots_per_cell == 4);
    CHECK(paired.boots_per_cell == 6);
    CHECK(paired.method.find("signed-rank") != std::string::npos);
    CHECK(bb::stats::simulated_power(5, 0.01, 2.0, options) == 0.0);
}

TEST_CASE("plan: a half-width plan's intervals are that narrow as often as it promises",
          "[stats]") {
    // σ 0.05, ±5 %: small enough to simulate quickly. Checked on fresh simulations (another
    // seed), against one boot fewer, and against normal theory: the expected half-width of a
    // 95 % interval for the shift is z σ √(2 / n) divided by the rank tests' efficiency √(3/π)
    // (paired: the differences of independent boots have σ √2, over n pairs); asking for it in
    // 80 % of runs, not on average, costs a few boots more, never fewer.
    for (const bool paired : {false, true}) {
        bb::stats::SampleSizeOptions options;
        options.paired = paired;
        options.simulations = 600;
        const double sigma = 0.05;
        const double half_width = 0.05;
        const auto plan = bb::stats::plan_boots_for_half_width(sigma, half_width, options);
        REQUIRE(plan.insufficient.empty());
        bb::stats::SampleSizeOptions fresh = options;
        fresh.seed = 4242;
        fresh.simulations = 1'500;
        const int n = plan.boots_per_cell;
        const double share = bb::stats::simulated_precision(n, sigma, half_width, fresh);
        const double fewer = bb::stats::simulated_precision(n - 1, sigma, half_width, fresh);
        const double z = 1.959964;
        const double theory = 2 * z * z * sigma * sigma / (half_width * half_width) / (3 / M_PI);
        std::cout << fmt::format("[stats] half-width plan {}: {} boots per cell, {:.1f} % of runs "
                                 "(fresh seed {:.1f} %, one fewer {:.1f} %), theory on average "
                                 "{:.1f}\n",
                                 paired ? "paired" : "unpaired", n, 100 * plan.achieved_power,
                                 100 * share, 100 * fewer, theory);
        CHECK(share >= 0.8 - 0.04);
        CHECK(fewer < 0.8 + 0.04);
        CHECK(n >= theory - 1);
        CHECK(n <= 1.6 * theory + 3);
        CHECK(plan.method.find(paired ? "signed-rank" : "Mann-Whitney") != std::string::npos);
    }
}

TEST_CASE("plan: a half-width plan needs a spread and a width, and says when it falls short",
          "[stats]") {
    CHECK_FALSE(bb::stats::plan_boots_for_half_width(0, 0.02).insufficient.empty());
    CHECK_FALSE(bb::stats::plan_boots_for_half_width(0.05, 0).insufficient.empty());
    bb::stats::SampleSizeOptions small;
    small.max_boots = 5;
    small.simulations = 100;
    const auto plan = bb::stats::plan_boots_for_half_width(0.5, 0.01, small);
    CHECK(plan.boots_per_cell == 0);
    CHECK(plan.insufficient == "5 boots per cell reach only 0 % assurance of ±1.0 %");
    // Two boots per group have no 95 % interval at all: never narrow enough.
    CHECK(bb::stats::simulated_precision(2, 0.001, 0.5, small) == 0.0);
}
