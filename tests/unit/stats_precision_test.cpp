// The precision rule of precision-based repeats, and pairing boots by round.
#include "stats/median_interval.h"
#include "stats/precision.h"
#include "stats/round_pairs.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

TEST_CASE("relative half width of a median interval", "[stats]") {
    // n=8: [x(1), x(8)] = [98, 102] around the median 100.
    const std::vector<double> tight{98, 99, 99.5, 100, 100, 100.5, 101, 102};
    const auto result = bb::stats::median_interval(tight);
    CHECK(bb::stats::relative_half_width(result) == Approx(0.02));
    CHECK(bb::stats::precise_enough(result, 0.02));
    CHECK_FALSE(bb::stats::precise_enough(result, 0.019));
    // Five boots have no 95 % interval: never precise enough, however close they are.
    const auto five = bb::stats::median_interval(std::vector<double>{100, 100, 100, 100, 100.1});
    CHECK(std::isnan(bb::stats::relative_half_width(five)));
    CHECK_FALSE(bb::stats::precise_enough(five, 0.5));
}

TEST_CASE("pairing boots by round", "[stats]") {
    // Round 2 lost its B boot, round 4 has no A boot, round 1 has two A boots (the first kept).
    const auto pairs =
        bb::stats::pair_by_round({{3, 30}, {1, 10}, {2, 20}, {1, 11}}, {{1, 15}, {3, 35}, {4, 45}});
    CHECK(pairs.a == std::vector<double>{10, 30});
    CHECK(pairs.b == std::vector<double>{15, 35});
    CHECK(pairs.unpaired == 3);
}
