#include "stats/benjamini_hochberg.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

using bb::stats::benjamini_hochberg_adjust;

TEST_CASE("Benjamini-Hochberg q-values by hand", "[benjamini-hochberg]") {
    // m = 5: sorted p 0.01 0.02 0.03 0.04 0.5 → m·p/rank 0.05 0.05 0.05 0.05 0.5; step-up
    // minima from the top keep them monotone.
    const std::vector<double> p{0.04, 0.5, 0.01, 0.03, 0.02};
    const auto q = benjamini_hochberg_adjust(p);
    REQUIRE(q.size() == 5);
    CHECK(q[0] == Approx(0.05));
    CHECK(q[1] == Approx(0.5));
    CHECK(q[2] == Approx(0.05));
    CHECK(q[3] == Approx(0.05));
    CHECK(q[4] == Approx(0.05));
    // A later, larger p lowers an earlier one's q: sorted 0.01 0.04 0.045 → 0.03, 0.06, 0.045
    // → the running minimum from the top gives 0.03, 0.045, 0.045.
    const auto r = benjamini_hochberg_adjust(std::vector<double>{0.045, 0.01, 0.04});
    CHECK(r[0] == Approx(0.045));
    CHECK(r[1] == Approx(0.03));
    CHECK(r[2] == Approx(0.045));
}

TEST_CASE("Benjamini-Hochberg keeps NaN and counts it in m, and caps at 1",
          "[benjamini-hochberg]") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto q = benjamini_hochberg_adjust(std::vector<double>{0.01, nan, 0.9});
    CHECK(q[0] == Approx(0.03)); // m = 3, rank 1
    CHECK(std::isnan(q[1]));
    CHECK(q[2] == Approx(1.0)); // 3 · 0.9 / 2 = 1.35, capped
    CHECK(benjamini_hochberg_adjust(std::vector<double>{}).empty());
}
