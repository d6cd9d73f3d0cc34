// Calibration of the BCa bootstrap where it is allowed (n ≥ 20): the median holds its level at
// n = 30 on every family; the mean does not (the documented negative case).
#include "stats/bootstrap_bca.h"
#include "stats/sorted.h"
#include "stats_calibration.h"

#include <numeric>

using namespace bb::test;

namespace {
double mean(std::span<const double> values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}
// The median through a scratch copy (nth_element, not a sort): called ~10^7 times here.
double median(std::span<const double> values) {
    thread_local std::vector<double> scratch;
    scratch.assign(values.begin(), values.end());
    return bb::stats::median_in_place(scratch);
}
} // namespace

TEST_CASE("BCa bootstrap of a median at n=30 holds 95 % within 1.5 points",
          "[.][stats][calibration]") {
    // 499 resamples per data set keep this test to seconds; reports use 2,000.
    std::mt19937_64 rng(k_calibration_seed + 40);
    bb::stats::BootstrapOptions options;
    options.resamples = 499;
    for (const auto& family : calibration_families()) {
        Tally covered;
        for (int set = 0; set < k_data_sets; ++set) {
            const auto sample = draw_sample(family, rng, 30);
            options.seed = static_cast<std::uint64_t>(set);
            covered.add(bb::stats::bca_interval(sample, median, "median", 0.95, options)
                            .interval.contains(family.median));
        }
        print_row("BCa bootstrap of the median", family.name, 30,
                  fmt::format("coverage {:5.1f} %  nominal 95.0 %", 100 * covered.rate()));
        CHECK(covered.rate() >= 0.95 - 0.015);
    }
}

TEST_CASE("negative case: BCa of a mean at n=30 falls short on heavy tails",
          "[.][stats][calibration]") {
    // Why the library offers no bootstrap of a mean: at n = 30 it undercovers, badly on t3.
    std::mt19937_64 rng(k_calibration_seed + 42);
    bb::stats::BootstrapOptions options;
    options.resamples = 499;
    for (const auto& family : calibration_families()) {
        Tally covered;
        for (int set = 0; set < 2'000; ++set) {
            auto sample = draw_sample(family, rng, 30);
            if (family.name == "log-normal") {
                for (double& value : sample) {
                    value = std::log(value); // the geomean's log: true value 0
                }
            }
            options.seed = static_cast<std::uint64_t>(set);
            covered.add(bb::stats::bca_interval(sample, mean, "mean", 0.95, options)
                            .interval.contains(0.0));
        }
        print_row("NOT USED: BCa bootstrap of the mean", family.name, 30,
                  fmt::format("coverage {:5.1f} %  nominal 95.0 % (2000 data sets)",
                              100 * covered.rate()));
        if (family.name == "t3 (heavy)") {
            CHECK(covered.rate() < 0.95 - 0.015);
        }
    }
}

TEST_CASE("BCa refuses below 20 values and labels itself", "[stats]") {
    std::mt19937_64 rng(k_calibration_seed + 41);
    const auto small = draw_sample(calibration_families()[0], rng, 19);
    const auto refused = bb::stats::bca_interval(small, mean, "mean");
    CHECK_FALSE(refused.answered());
    CHECK(refused.insufficient.find("n=19 < 20") != std::string::npos);
    const auto large = draw_sample(calibration_families()[0], rng, 40);
    const auto result = bb::stats::bca_interval(large, mean, "mean");
    CHECK(result.answered());
    CHECK_FALSE(result.exact);
    CHECK(result.method.find("BCa bootstrap") != std::string::npos);
    CHECK(result.interval.contains(result.estimate));
    // Same seed, same interval.
    CHECK(bb::stats::bca_interval(large, mean, "mean").interval.low == result.interval.low);
}
