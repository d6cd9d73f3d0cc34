// Night medians and the night / boot variance components: hand-checked values.
#include "stats/night_history.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace {
// Boots whose logs are the given values, so the components can be checked by hand.
std::vector<double> exp_of(std::vector<double> logs) {
    for (double& value : logs) {
        value = std::exp(value);
    }
    return logs;
}
} // namespace

TEST_CASE("night_medians: one median, interval and n per night", "[stats]") {
    const bb::stats::NightBoots nights{{5, 1, 4, 2, 3, 6, 7}, {10, 12, 11}};
    const auto medians = bb::stats::night_medians(nights);
    REQUIRE(medians.size() == 2);
    CHECK(medians[0].estimate == 4);
    CHECK(medians[0].n_a == 7);
    CHECK(medians[0].answered()); // n = 7: [x(1), x(7)] covers 98.4 %
    CHECK(medians[0].interval.low == 1);
    CHECK(medians[0].interval.high == 7);
    CHECK(medians[1].estimate == 11);
    CHECK(medians[1].n_a == 3);
    CHECK_FALSE(medians[1].answered()); // 3 boots: [min, max] covers 75 %
    CHECK(medians[1].confidence == Approx(0.75));
}

TEST_CASE("night_variance: method-of-moments components on log times", "[stats]") {
    // Logs {1, 3} and {5, 7}: MS_between = 16, MS_within = 2, n0 = 2 → between 7, within 2.
    const auto balanced = bb::stats::night_variance({exp_of({1, 3}), exp_of({5, 7})});
    CHECK(balanced.insufficient.empty());
    CHECK(balanced.between == Approx(7));
    CHECK(balanced.within == Approx(2));
    CHECK(balanced.intraclass() == Approx(7.0 / 9));
    CHECK(balanced.nights == 2);
    CHECK(balanced.boots == 4);
    // Unequal nights {0, 2} and {3, 4, 5}: MS_between = 10.8, MS_within = 4/3, n0 = 2.4.
    const auto unequal = bb::stats::night_variance({exp_of({0, 2}), exp_of({3, 4, 5})});
    CHECK(unequal.between == Approx((10.8 - 4.0 / 3) / 2.4));
    CHECK(unequal.within == Approx(4.0 / 3));
    // Equal night means: the moment estimate (0 − 2) / 2 is negative, clamped at 0.
    const auto none = bb::stats::night_variance({exp_of({0, 2}), exp_of({0, 2})});
    CHECK(none.between == 0);
    CHECK(none.within == Approx(2));
    // An empty night is no night.
    const auto with_empty = bb::stats::night_variance({exp_of({1, 3}), {}, exp_of({5, 7})});
    CHECK(with_empty.nights == 2);
    CHECK(with_empty.between == Approx(7));
}

TEST_CASE("night_variance says why it cannot answer", "[stats]") {
    CHECK_FALSE(bb::stats::night_variance({{1, 2, 3}}).insufficient.empty()); // one night
    CHECK_FALSE(bb::stats::night_variance({{1}, {2}}).insufficient.empty());  // no replicate
    CHECK(bb::stats::night_variance({{1, 0}, {2, 3}}).insufficient ==
          "a boot time is not positive: no log scale");
}
