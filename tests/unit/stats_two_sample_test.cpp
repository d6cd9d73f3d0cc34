// Exact values of the two-group methods: textbook results and brute-force enumeration.
#include "stats/ranks.h"
#include "stats/two_sample.h"

#include <catch2/catch.hpp>
#include <vector>

using bb::stats::hodges_lehmann_ratio;
using bb::stats::hodges_lehmann_shift;

namespace {

// The two-sided permutation p of B's rank sum, by enumerating every subset (ties mid-ranked):
// an independent check of the counting in null_distributions.cpp.
double brute_force_p(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> all(a);
    all.insert(all.end(), b.begin(), b.end());
    const auto ranks = bb::stats::doubled_ranks(all).ranks;
    long observed = 0;
    for (size_t i = a.size(); i < all.size(); ++i) {
        observed += ranks[i];
    }
    long lower = 0;
    long upper = 0;
    long total = 0;
    for (unsigned mask = 0; mask < (1u << all.size()); ++mask) {
        if (static_cast<size_t>(__builtin_popcount(mask)) != b.size()) {
            continue;
        }
        long sum = 0;
        for (size_t i = 0; i < all.size(); ++i) {
            sum += (mask >> i) & 1u ? ranks[i] : 0;
        }
        lower += sum <= observed ? 1 : 0;
        upper += sum >= observed ? 1 : 0;
        ++total;
    }
    return std::min(1.0,
                    2.0 * static_cast<double>(std::min(lower, upper)) / static_cast<double>(total));
}

} // namespace

TEST_CASE("Hodges-Lehmann: 3 vs 3 can never reach 95 %", "[stats]") {
    const std::vector<double> a{1, 2, 3};
    const std::vector<double> b{4, 5, 6};
    const auto result = hodges_lehmann_shift(a, b);
    CHECK(result.estimate == 3);          // median of {3,4,5,2,3,4,1,2,3}
    CHECK(result.p_value == Approx(0.1)); // R: wilcox.test(1:3, 4:6) p = 0.1
    CHECK_FALSE(result.answered());
    CHECK(result.confidence == Approx(0.9));
    CHECK(result.interval.low == 1);
    CHECK(result.interval.high == 5);
    CHECK(result.exact);
}

TEST_CASE("Hodges-Lehmann: 4 vs 4 exact interval and p", "[stats]") {
    const std::vector<double> a{1, 2, 3, 4};
    const std::vector<double> b{5, 6, 7, 8};
    const auto result = hodges_lehmann_shift(a, b);
    CHECK(result.answered());
    CHECK(result.p_value == Approx(2.0 / 70));
    CHECK(result.confidence == Approx(1 - 2.0 / 70));
    CHECK(result.estimate == 4);
    CHECK(result.interval.low == 1); // k = 1: [min, max] of the differences
    CHECK(result.interval.high == 7);
}

TEST_CASE("Mann-Whitney p with ties equals brute-force enumeration", "[stats]") {
    const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases{
        {{1, 2, 2, 3}, {2, 3, 3, 4}},
        {{1, 1, 1, 2, 5}, {1, 2, 2, 2, 3, 3}},
        {{0.5, 0.5, 1.0}, {1.0, 1.5, 1.5, 2.0, 2.0}},
        {{3, 1, 4, 1, 5}, {9, 2, 6, 5, 3, 5}},
    };
    for (const auto& [a, b] : cases) {
        CHECK(bb::stats::mann_whitney_test(a, b).p_value == Approx(brute_force_p(a, b)));
        CHECK(bb::stats::mann_whitney_test(a, b).exact);
    }
}

TEST_CASE("Hodges-Lehmann ratio is the shift of the logs", "[stats]") {
    const std::vector<double> a{1.00, 1.02, 0.98, 1.01, 0.99, 1.03};
    std::vector<double> b;
    for (double value : a) {
        b.push_back(value * 1.2);
    }
    const auto result = hodges_lehmann_ratio(a, b);
    CHECK(result.estimate == Approx(1.2));
    CHECK(result.interval.contains(1.2));
    CHECK(result.p_value < 0.05);
    CHECK(result.method.find("log scale") != std::string::npos);
    const std::vector<double> with_zero{0.0, 1.0, 2.0};
    CHECK_FALSE(hodges_lehmann_ratio(with_zero, a).answered());
    CHECK_FALSE(hodges_lehmann_shift({}, a).answered());
}

TEST_CASE("Mann-Whitney large groups use the normal approximation", "[stats]") {
    std::vector<double> a(60);
    std::vector<double> b(60);
    for (size_t i = 0; i < 60; ++i) {
        a[i] = static_cast<double>(i);
        b[i] = static_cast<double>(i) + 30.5;
    }
    const auto result = hodges_lehmann_shift(a, b);
    CHECK_FALSE(result.exact);
    CHECK(result.method.find("normal approximation") != std::string::npos);
    CHECK(result.estimate == Approx(30.5));
    CHECK(result.p_value < 1e-4);
    CHECK(result.interval.contains(30.5));
}
