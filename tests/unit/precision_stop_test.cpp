// The stopping rule of precision-based repeats on fake sequences (pipeline/precision_stop.h).
#include "pipeline/precision_stop.h"

#include <catch2/catch.hpp>
#include <vector>

namespace {

const bb::PrecisionTarget k_two_percent{{}, 0.02};

} // namespace

TEST_CASE("precision stop: never before min, at once when precise", "[precision]") {
    const std::vector<double> steady{10.0, 10.05, 9.98, 10.02, 10.01, 9.99, 10.03, 10.0};
    CHECK_FALSE(bb::precision_stop(k_two_percent, 8, 20, 7, steady).stop);
    const auto stop = bb::precision_stop(k_two_percent, 8, 20, 8, steady);
    CHECK(stop.stop);
    CHECK(stop.reason == "precision reached at n=8 (±0.3 % ≤ ±2.0 %)");
}

TEST_CASE("precision stop: below 6 values no interval, so never precise", "[precision]") {
    const std::vector<double> five{10, 10, 10, 10, 10};
    CHECK_FALSE(bb::precision_stop(k_two_percent, 3, 20, 5, five).stop);
    const auto at_max = bb::precision_stop(k_two_percent, 3, 5, 5, five);
    CHECK(at_max.stop);
    CHECK(at_max.reason == "max reached (n=5, no 95 % interval of the used boots)");
}

TEST_CASE("precision stop: a noisy cell goes on until max", "[precision]") {
    std::vector<double> noisy;
    for (int n = 1; n <= 12; ++n) {
        noisy.push_back(n % 2 == 0 ? 8.0 + n * 0.1 : 12.0 - n * 0.1);
        const auto decision = bb::precision_stop(k_two_percent, 6, 12, n, noisy);
        CHECK(decision.stop == (n == 12));
    }
    CHECK(bb::precision_stop(k_two_percent, 6, 12, 12, noisy)
              .reason.rfind("max reached (n=12, ±", 0) == 0);
}

TEST_CASE("precision stop: failed boots count as rounds but bring no value", "[precision]") {
    const std::vector<double> six{10, 10, 10, 10, 10, 10};
    // 8 rounds booted, 2 of them failed: the 6 used values decide.
    const auto stop = bb::precision_stop(k_two_percent, 6, 20, 8, six);
    CHECK(stop.stop);
    CHECK(stop.reason == "precision reached at n=8 (±0.0 % ≤ ±2.0 %)");
}
