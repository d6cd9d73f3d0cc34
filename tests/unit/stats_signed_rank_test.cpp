// Exact values of the paired method against R's wilcox.test and brute-force enumeration.
#include "stats/ranks.h"
#include "stats/signed_rank.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace {

// Two-sided p by enumerating all 2^n sign patterns of the non-zero |d| (mid-ranks).
double brute_force_p(const std::vector<double>& d) {
    std::vector<double> magnitudes;
    long observed = 0;
    for (double value : d) {
        if (value != 0) {
            magnitudes.push_back(std::abs(value));
        }
    }
    const auto ranks = bb::stats::doubled_ranks(magnitudes).ranks;
    size_t next = 0;
    for (double value : d) {
        if (value != 0) {
            observed += value > 0 ? ranks[next] : 0;
            ++next;
        }
    }
    long lower = 0;
    long upper = 0;
    const unsigned patterns = 1u << ranks.size();
    for (unsigned mask = 0; mask < patterns; ++mask) {
        long sum = 0;
        for (size_t i = 0; i < ranks.size(); ++i) {
            sum += (mask >> i) & 1u ? ranks[i] : 0;
        }
        lower += sum <= observed ? 1 : 0;
        upper += sum >= observed ? 1 : 0;
    }
    return std::min(1.0, 2.0 * static_cast<double>(std::min(lower, upper)) / patterns);
}

} // namespace

TEST_CASE("signed-rank: 1..6 all positive", "[stats]") {
    const std::vector<double> d{1, 2, 3, 4, 5, 6};
    const auto result = bb::stats::signed_rank(d);
    CHECK(result.p_value == Approx(2.0 / 64)); // R: wilcox.test(1:6) p = 0.03125
    CHECK(result.answered());
    CHECK(result.confidence == Approx(1 - 2.0 / 64));
    CHECK(result.estimate == 3.5);
    CHECK(result.interval.low == 1);
    CHECK(result.interval.high == 6);
}

TEST_CASE("signed-rank: 5 pairs cannot reach 95 %", "[stats]") {
    const auto result = bb::stats::signed_rank(std::vector<double>{1, 2, 3, 4, 5});
    CHECK_FALSE(result.answered());
    CHECK(result.confidence == Approx(1 - 2.0 / 32));
    CHECK(result.p_value == Approx(2.0 / 32));
}

TEST_CASE("signed-rank p with ties and zeros equals brute-force enumeration", "[stats]") {
    const std::vector<std::vector<double>> cases{
        {1, -1, 2, 2, -3, 0, 4},
        {0.5, 0.5, 0.5, -0.5, 1, 1.5, 0, 0},
        {-2, -2, -1, 3, -4, -4, -4, 5, 1},
    };
    for (const auto& d : cases) {
        CHECK(bb::stats::signed_rank(d).p_value == Approx(brute_force_p(d)));
    }
}

TEST_CASE("signed-rank paired shift and ratio", "[stats]") {
    const std::vector<double> a{10, 12, 11, 13, 10.5, 12.5, 11.5};
    std::vector<double> b;
    for (double value : a) {
        b.push_back(value * 0.9);
    }
    const auto ratio = bb::stats::signed_rank_ratio(a, b);
    CHECK(ratio.estimate == Approx(0.9));
    CHECK(ratio.interval.contains(0.9));
    CHECK(ratio.p_value == Approx(2.0 / 128));
    CHECK(ratio.n_a == 7);
    CHECK(ratio.n_b == 7);
    const std::vector<double> shorter{1, 2};
    CHECK_THROWS(bb::stats::signed_rank_shift(a, shorter));
}
