#include "report/bootstrap.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using bb::BootstrapOptions;
using bb::Comparison;
using Verdict = bb::Comparison::Verdict;

namespace {
std::vector<double> normal_sample(std::uint64_t seed, int n, double mean, double sigma) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(mean, sigma);
    std::vector<double> values(static_cast<size_t>(n));
    for (double& value : values) {
        value = noise(rng);
    }
    return values;
}

double plain_median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The textbook bootstrap: resample n values with replacement, take the median, repeat.
bb::Interval naive_bootstrap_ci(const std::vector<double>& sample, int resamples,
                                std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<size_t> pick(0, sample.size() - 1);
    std::vector<double> medians;
    std::vector<double> resample(sample.size());
    for (int r = 0; r < resamples; ++r) {
        for (double& value : resample) {
            value = sample[pick(rng)];
        }
        medians.push_back(plain_median(resample));
    }
    std::sort(medians.begin(), medians.end());
    const auto at = [&medians](double q) {
        const double position = q * static_cast<double>(medians.size() - 1);
        const auto lower = static_cast<size_t>(position);
        const double fraction = position - static_cast<double>(lower);
        return medians[lower] +
               fraction * (medians[std::min(lower + 1, medians.size() - 1)] - medians[lower]);
    };
    return {at(0.025), at(0.975)};
}
} // namespace

TEST_CASE("bootstrap median: exact median, interval inside the data", "[bootstrap]") {
    const std::vector<double> odd{5, 1, 4, 2, 3};
    const auto estimate = bb::bootstrap_median(odd);
    CHECK(estimate.n == 5);
    CHECK(estimate.median == 3.0);
    CHECK(estimate.ci.low >= 1.0);
    CHECK(estimate.ci.high <= 5.0);
    CHECK(estimate.ci.contains(3.0));

    const std::vector<double> even{4, 1, 3, 2};
    CHECK(bb::bootstrap_median(even).median == 2.5);

    const auto one = bb::bootstrap_median(std::vector<double>{7.25});
    CHECK(one.median == 7.25);
    CHECK(one.ci.low == 7.25);
    CHECK(one.ci.high == 7.25);

    const auto none = bb::bootstrap_median(std::vector<double>{});
    CHECK(none.n == 0);
    CHECK(std::isnan(none.median));
    CHECK(std::isnan(none.ci.low));
    CHECK_FALSE(none.ci.contains(0.0));
}

TEST_CASE("bootstrap median interval matches the exact bootstrap distribution", "[bootstrap]") {
    // For n = 11 the resampled median is an order statistic x(j) with
    // P(median <= x(j)) = P(Binomial(11, j/11) >= 6): 0.0072 for j = 2, 0.0512 for j = 3,
    // 0.9488 for j = 8, 0.9928 for j = 9. So the 2.5 % and 97.5 % percentiles are x(3) and
    // x(9), far from any boundary that sampling noise could cross.
    const std::vector<double> sample{10, 11.5, 13, 14, 16, 19, 23, 28, 34, 41, 50};
    const auto estimate = bb::bootstrap_median(sample);
    CHECK(estimate.median == 19.0);
    CHECK(estimate.ci.low == 13.0);
    CHECK(estimate.ci.high == 34.0);
}

TEST_CASE("bootstrap median is reproducible from its seed", "[bootstrap]") {
    const auto sample = normal_sample(1, 40, 2.0, 0.1);
    const auto first = bb::bootstrap_median(sample);
    const auto second = bb::bootstrap_median(sample);
    CHECK(first.ci.low == second.ci.low);
    CHECK(first.ci.high == second.ci.high);

    BootstrapOptions other;
    other.seed = 99;
    const auto reseeded = bb::bootstrap_median(sample, other);
    // Another seed moves the ends a little, not much: the interval is a property of the data.
    CHECK(reseeded.ci.low == Approx(first.ci.low).epsilon(0.01));
    CHECK(reseeded.ci.high == Approx(first.ci.high).epsilon(0.01));
}

TEST_CASE("the O(1) resampled median behaves like naive resampling", "[bootstrap]") {
    // Over many samples from N(0, 1): the same coverage of the true median (0) and the same
    // mean interval width as the textbook bootstrap, for odd and even n.
    for (const int n : {20, 21}) {
        int covered = 0;
        int naive_covered = 0;
        double width = 0;
        double naive_width = 0;
        constexpr int k_trials = 300;
        for (int trial = 0; trial < k_trials; ++trial) {
            const auto sample = normal_sample(1000 + static_cast<std::uint64_t>(trial), n, 0, 1);
            BootstrapOptions options;
            options.resamples = 2000;
            options.seed = static_cast<std::uint64_t>(trial);
            const auto fast = bb::bootstrap_median(sample, options).ci;
            const auto naive =
                naive_bootstrap_ci(sample, 2000, 77 + static_cast<std::uint64_t>(trial));
            covered += fast.contains(0) ? 1 : 0;
            naive_covered += naive.contains(0) ? 1 : 0;
            width += fast.high - fast.low;
            naive_width += naive.high - naive.low;
        }
        INFO("n = " << n << ", coverage " << covered << " vs naive " << naive_covered);
        CHECK(covered >= static_cast<int>(0.88 * k_trials));
        CHECK(covered <= static_cast<int>(0.995 * k_trials));
        CHECK(std::abs(covered - naive_covered) <= 12);
        CHECK(width == Approx(naive_width).epsilon(0.05));
    }
}

TEST_CASE("compare finds a known shift and brackets it", "[bootstrap]") {
    const auto a = normal_sample(11, 30, 10.0, 0.5);
    auto b = normal_sample(12, 30, 10.0, 0.5);
    for (double& value : b) {
        value += 1.0; // B is 1 s slower
    }
    const Comparison slower = bb::compare_medians(a, b);
    CHECK(slower.n_a == 30);
    CHECK(slower.n_b == 30);
    CHECK(slower.median_a == plain_median(a));
    CHECK(slower.median_b == plain_median(b));
    CHECK(slower.difference == slower.median_b - slower.median_a);
    CHECK(slower.ratio == slower.median_b / slower.median_a);
    CHECK(slower.relative_change == Approx(slower.ratio - 1));
    CHECK(slower.difference_ci.contains(1.0));
    CHECK(slower.difference_ci.low > 0);
    CHECK(slower.ratio_ci.contains(1.1));
    CHECK(slower.ratio_ci.low > 1.0);
    CHECK(slower.difference_ci.contains(slower.difference));
    CHECK(slower.verdict == Verdict::Slower);

    const Comparison faster = bb::compare_medians(b, a);
    CHECK(faster.difference == -slower.difference);
    CHECK(faster.difference_ci.high < 0);
    CHECK(faster.difference_ci.contains(-1.0));
    CHECK(faster.verdict == Verdict::Faster);
}

TEST_CASE("compare of two samples of one distribution: no change", "[bootstrap]") {
    const auto a = normal_sample(21, 25, 3.0, 0.2);
    const auto b = normal_sample(22, 25, 3.0, 0.2);
    const Comparison same = bb::compare_medians(a, b);
    CHECK(same.difference_ci.contains(0.0));
    CHECK_FALSE(same.difference_ci.excludes_zero());
    CHECK(same.ratio_ci.contains(1.0));
    CHECK(same.verdict == Verdict::NoChange);
}

TEST_CASE("compare needs 3 samples per side", "[bootstrap]") {
    const std::vector<double> two{1.0, 1.1};
    const std::vector<double> many{2.0, 2.1, 2.2, 2.0, 2.1};
    const Comparison c = bb::compare_medians(two, many);
    CHECK(c.verdict == Verdict::Insufficient);
    CHECK(c.median_a == Approx(1.05));
    CHECK(c.median_b == 2.1);
    CHECK(bb::compare_medians(many, two).verdict == Verdict::Insufficient);
    const Comparison empty = bb::compare_medians(std::vector<double>{}, many);
    CHECK(empty.verdict == Verdict::Insufficient);
    CHECK(std::isnan(empty.difference));
    CHECK(bb::compare_medians(std::vector<double>{1, 1, 1}, std::vector<double>{2, 2, 2}).verdict ==
          Verdict::Slower);
}

TEST_CASE("compare threshold: a significant but small change does not count", "[bootstrap]") {
    // 1 % slower with tiny noise: significant, but under a 5 % threshold.
    const auto a = normal_sample(31, 40, 100.0, 0.1);
    auto b = normal_sample(32, 40, 100.0, 0.1);
    for (double& value : b) {
        value *= 1.01;
    }
    CHECK(bb::compare_medians(a, b).verdict == Verdict::Slower);
    CHECK(bb::compare_medians(a, b, {}, 0.005).verdict == Verdict::Slower);
    CHECK(bb::compare_medians(a, b, {}, 0.05).verdict == Verdict::NoChange);
    CHECK(bb::compare_medians(b, a, {}, 0.05).verdict == Verdict::NoChange);
    CHECK(bb::compare_medians(b, a, {}, 0.005).verdict == Verdict::Faster);
}

TEST_CASE("compare with a zero median has no ratio", "[bootstrap]") {
    const Comparison c =
        bb::compare_medians(std::vector<double>{0, 0, 0}, std::vector<double>{1, 2, 3});
    CHECK(std::isnan(c.ratio));
    CHECK(std::isnan(c.relative_change));
    CHECK(std::isnan(c.ratio_ci.low));
    CHECK(c.difference == 2.0);
    CHECK(c.verdict == Verdict::Slower);
}

TEST_CASE("relative change", "[bootstrap]") {
    CHECK(bb::relative_change(2.0, 3.0) == 0.5);
    CHECK(bb::relative_change(4.0, 3.0) == -0.25);
    CHECK(std::isnan(bb::relative_change(0.0, 1.0)));
}

TEST_CASE("geometric mean of ratios with an item-resampling interval", "[bootstrap]") {
    const auto g = bb::geometric_mean_ratio(std::vector<double>{2.0, 8.0});
    CHECK(g.n == 2);
    CHECK(g.value == Approx(4.0));
    CHECK(g.ci.low == Approx(2.0));
    CHECK(g.ci.high == Approx(8.0));

    const auto same = bb::geometric_mean_ratio(std::vector<double>{1.1, 1.1, 1.1});
    CHECK(same.value == Approx(1.1));
    CHECK(same.ci.low == Approx(1.1));
    CHECK(same.ci.high == Approx(1.1));

    const auto skipping =
        bb::geometric_mean_ratio(std::vector<double>{0.5, 2.0, 0.0, -1.0, std::nan("")});
    CHECK(skipping.n == 2);
    CHECK(skipping.skipped == 3);
    CHECK(skipping.value == Approx(1.0));

    const auto none = bb::geometric_mean_ratio(std::vector<double>{});
    CHECK(none.n == 0);
    CHECK(std::isnan(none.value));

    // Ten cells each ~3 % slower: the interval is above 1 and contains 1.03.
    std::vector<double> ratios;
    for (int i = 0; i < 10; ++i) {
        ratios.push_back(1.03 + 0.004 * (i % 3 - 1));
    }
    const auto shifted = bb::geometric_mean_ratio(ratios);
    CHECK(shifted.ci.low > 1.0);
    CHECK(shifted.ci.contains(1.03));
}

TEST_CASE("intervals and verdict names", "[bootstrap]") {
    const bb::Interval interval{1.0, 2.0};
    CHECK(interval.contains(1.0));
    CHECK(interval.contains(2.0));
    CHECK_FALSE(interval.contains(2.5));
    CHECK(interval.excludes_zero());
    CHECK_FALSE((bb::Interval{-1.0, 1.0}.excludes_zero()));
    CHECK((bb::Interval{-2.0, -1.0}.excludes_zero()));
    CHECK(bb::to_string(Verdict::Slower) == "slower");
    CHECK(bb::to_string(Verdict::Faster) == "faster");
    CHECK(bb::to_string(Verdict::NoChange) == "no change");
    CHECK(bb::to_string(Verdict::Insufficient) == "insufficient data");
}

TEST_CASE("bootstrap options are checked", "[bootstrap]") {
    BootstrapOptions none;
    none.resamples = 0;
    CHECK_THROWS_AS(bb::bootstrap_median(std::vector<double>{1, 2, 3}, none),
                    std::invalid_argument);
    BootstrapOptions certain;
    certain.confidence = 1.0;
    CHECK_THROWS_AS(bb::bootstrap_median(std::vector<double>{1, 2, 3}, certain),
                    std::invalid_argument);
}
