#include "stats/night_gate.h"

#include <catch2/catch.hpp>
#include <cmath>

TEST_CASE("night gate: tonight inside the earlier nights' spread is not flagged", "[stats]") {
    const std::vector<double> earlier{100, 102, 98, 101, 99};
    const auto gate = bb::stats::night_gate(earlier, 100.5);
    REQUIRE(gate.answered());
    CHECK(gate.nights == 5);
    CHECK(gate.p_value > 0.5);
    CHECK(gate.expected.contains(gate.ratio));
}

TEST_CASE("night gate: the prediction interval is Student's with k - 1 degrees of freedom",
          "[stats]") {
    // Logs of the earlier nights: 0, ±d (twice), so mean 0 and s = d·√(4/4) = d; the
    // interval is ±t(4, 0.975)·d·√(1 + 1/5) = ±2.776445·d·1.095445 on the log scale.
    const double d = 0.01;
    const std::vector<double> earlier{1, std::exp(d), std::exp(-d), std::exp(d), std::exp(-d)};
    const auto gate = bb::stats::night_gate(earlier, std::exp(0.04));
    REQUIRE(gate.answered());
    CHECK(gate.night_sd == Catch::Detail::Approx(d).epsilon(1e-9));
    CHECK(std::log(gate.expected.high) ==
          Catch::Detail::Approx(2.776445 * d * 1.095445).epsilon(1e-5));
    CHECK(std::log(gate.expected.low) ==
          Catch::Detail::Approx(-2.776445 * d * 1.095445).epsilon(1e-5));
    CHECK(gate.ratio == Catch::Detail::Approx(std::exp(0.04)));
    // t = 0.04 / (0.01·1.095445) = 3.651484 with 4 df: two-sided p = 0.0217429 (R:
    // 2*pt(-3.651484, 4); here by numerical integration of t's density).
    CHECK(gate.p_value == Catch::Detail::Approx(0.0217429).epsilon(1e-4));
}

TEST_CASE("night gate: too few nights, no spread or a bad median give no answer", "[stats]") {
    CHECK_FALSE(bb::stats::night_gate({100, 101, 99, 100}, 100).answered());
    CHECK(bb::stats::night_gate({100, 101, 99, 100}, 100).insufficient ==
          "4 earlier nights: the night-level gate needs 5");
    CHECK_FALSE(bb::stats::night_gate({100, 100, 100, 100, 100}, 130).answered());
    CHECK_FALSE(bb::stats::night_gate({100, 101, 99, 100, NAN}, 100).answered());
    CHECK_FALSE(bb::stats::night_gate({100, 101, 99, 100, 102}, 0).answered());
}
