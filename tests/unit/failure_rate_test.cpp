// Fisher's exact test of failure rates (stats/failure_rate.h), checked against hand-computed
// hypergeometric tails and by simulation: at equal rates it flags at most α of the time.
#include "stats/failure_rate.h"

#include <catch2/catch.hpp>
#include <random>

using bb::stats::fails_more;
using bb::stats::fisher_greater_p;

TEST_CASE("Fisher's one-sided p: hand-computed tails", "[failure_rate]") {
    CHECK(fisher_greater_p(0, 5, 5, 5) == Approx(1.0 / 252));
    CHECK(fisher_greater_p(0, 5, 1, 5) == Approx(0.5));
    // 1 of 10 vs 6 of 10: P(X >= 6), X ~ Hypergeometric(20, 7, 10) = 0.0286.
    CHECK(fisher_greater_p(1, 10, 6, 10) == Approx(0.02864).epsilon(1e-3));
    CHECK(fisher_greater_p(3, 5, 0, 5) == Approx(1.0));
    CHECK(fisher_greater_p(0, 0, 0, 0) == 1.0);
    CHECK_THROWS(fisher_greater_p(6, 5, 0, 5));
}

TEST_CASE("fails_more: B failing where A did not, or more often at alpha", "[failure_rate]") {
    CHECK(fails_more(0, 20, 1, 20, 0.05)); // any failure where A had none
    CHECK_FALSE(fails_more(0, 20, 0, 20, 0.05));
    CHECK_FALSE(fails_more(2, 5, 3, 5, 0.05)); // p 0.5
    CHECK(fails_more(1, 10, 6, 10, 0.05));
    CHECK_FALSE(fails_more(6, 10, 1, 10, 0.05));
}

TEST_CASE("Fisher's test holds its level when both sides fail alike", "[failure_rate]") {
    std::mt19937_64 random(48);
    std::bernoulli_distribution fails(0.3);
    int flagged = 0;
    constexpr int k_trials = 20000;
    for (int trial = 0; trial < k_trials; ++trial) {
        int a = 0;
        int b = 0;
        for (int i = 0; i < 12; ++i) {
            a += fails(random) ? 1 : 0;
            b += fails(random) ? 1 : 0;
        }
        flagged += fisher_greater_p(a, 12, b, 12) <= 0.05 ? 1 : 0;
    }
    // Exact and conservative: at most α (plus simulation error, 3 sd of 0.0015).
    CHECK(static_cast<double>(flagged) / k_trials <= 0.05 + 0.0045);
    CHECK(flagged > 0);
}
