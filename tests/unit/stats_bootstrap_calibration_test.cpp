// Calibration of the BCa bootstrap where it is allowed (n ≥ 20): the median holds its level at
// n = 30 on every family; the mean does not (the documented negative case).
#include "bootstrap_bca.h"
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
// How often BCa intervals of `statistic` (499 resamples, seeded per data set: reports use 2,000)
// over samples of 30 from `family` cover `truth`; `logs`: the sample's logs instead.
double bca_coverage(std::mt19937_64& rng, const Family& family, int data_sets,
                    const bb::test::Statistic& statistic, std::string_view name, double truth,
                    bool logs) {
    bb::test::BootstrapOptions options;
    options.resamples = 499;
    Tally covered;
    for (int set = 0; set < data_sets; ++set) {
        auto sample = draw_sample(family, rng, 30);
        if (logs) {
            for (double& value : sample) {
                value = std::log(value);
            }
        }
        options.seed = static_cast<std::uint64_t>(set);
        covered.add(bb::test::bca_interval(sample, statistic, name, 0.95, options)
                        .interval.contains(truth));
    }
    return covered.rate();
}
} // namespace

TEST_CASE("BCa bootstrap of a median at n=30 holds 95 % within 1.5 points",
          "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 40);
    for (const auto& family : calibration_families()) {
        const double coverage =
            bca_coverage(rng, family, k_data_sets, median, "median", family.median, false);
        print_row("BCa bootstrap of the median", family.name, 30,
                  fmt::format("coverage {:5.1f} %  nominal 95.0 %", 100 * coverage));
        CHECK(coverage >= 0.95 - 0.015);
    }
}

TEST_CASE("negative case: BCa of a mean at n=30 falls short on heavy tails",
          "[.][stats][calibration]") {
    // Why the library offers no bootstrap of a mean: at n = 30 it undercovers, badly on t3.
    // Log-normal values enter as logs (the geomean's log): every family's mean is then 0.
    std::mt19937_64 rng(k_calibration_seed + 42);
    for (const auto& family : calibration_families()) {
        const bool logs = family.name == "log-normal";
        const double coverage = bca_coverage(rng, family, 2'000, mean, "mean", 0.0, logs);
        print_row(
            "NOT USED: BCa bootstrap of the mean", family.name, 30,
            fmt::format("coverage {:5.1f} %  nominal 95.0 % (2000 data sets)", 100 * coverage));
        if (family.name == "t3 (heavy)") {
            CHECK(coverage < 0.95 - 0.015);
        }
    }
}

TEST_CASE("BCa refuses below 20 values and labels itself", "[stats]") {
    std::mt19937_64 rng(k_calibration_seed + 41);
    const auto small = draw_sample(calibration_families()[0], rng, 19);
    const auto refused = bb::test::bca_interval(small, mean, "mean");
    CHECK_FALSE(refused.answered());
    CHECK(refused.insufficient.find("n=19 < 20") != std::string::npos);
    const auto large = draw_sample(calibration_families()[0], rng, 40);
    const auto result = bb::test::bca_interval(large, mean, "mean");
    CHECK(result.answered());
    CHECK_FALSE(result.exact);
    CHECK(result.method.find("BCa bootstrap") != std::string::npos);
    CHECK(result.interval.contains(result.estimate));
    // Same seed, same interval.
    CHECK(bb::test::bca_interval(large, mean, "mean").interval.low == result.interval.low);
}
