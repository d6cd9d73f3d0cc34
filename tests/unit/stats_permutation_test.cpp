// The seeded shuffle and the Monte Carlo permutation p-value: hand-checked cases.
#include "stats/permutation_p.h"
#include "util/seeded_shuffle.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <numeric>
#include <random>
#include <vector>

TEST_CASE("bounded_draw is uniform and inside its bound", "[stats]") {
    std::mt19937_64 engine(7);
    std::array<int, 3> counts{};
    for (int i = 0; i < 30'000; ++i) {
        const auto draw = bb::bounded_draw(engine, 3);
        REQUIRE(draw < 3);
        ++counts[draw];
    }
    for (int count : counts) {
        CHECK(count == Approx(10'000).margin(400)); // SD of a count: 82
    }
    CHECK(bb::bounded_draw(engine, 1) == 0);
}

TEST_CASE("seeded_shuffle permutes and replays from its seed", "[stats]") {
    std::vector<int> values(10);
    std::iota(values.begin(), values.end(), 0);
    auto first = values;
    auto second = values;
    std::mt19937_64 a(42);
    std::mt19937_64 b(42);
    bb::seeded_shuffle(std::span<int>(first), a);
    bb::seeded_shuffle(std::span<int>(second), b);
    CHECK(first == second);
    CHECK(first != values); // 1 chance in 10! to fail, and the seed is fixed
    std::sort(first.begin(), first.end());
    CHECK(first == values);
    // All 6 orders of 3 values, each about a sixth of the time.
    std::mt19937_64 engine(3);
    std::array<int, 6> orders{};
    for (int i = 0; i < 60'000; ++i) {
        std::array<int, 3> three{0, 1, 2};
        bb::seeded_shuffle(std::span<int>(three), engine);
        ++orders[static_cast<size_t>(three[0] * 2 + (three[1] > three[2] ? 1 : 0))];
    }
    for (int count : orders) {
        CHECK(count == Approx(10'000).margin(400)); // SD of a count: 91
    }
}

TEST_CASE("permutation_p counts the observed order among the draws", "[stats]") {
    const auto first_value = [](std::span<const double> order) { return order[0]; };
    bb::stats::PermutationOptions options{.draws = 9'999, .seed = 1};
    // The largest of four values first: a draw is as extreme only with it first again (¼).
    const double p = bb::stats::permutation_p({4, 1, 2, 3}, first_value, options);
    CHECK(p == Approx(0.25).margin(0.015));                                   // SE 0.0043
    CHECK(p == bb::stats::permutation_p({4, 1, 2, 3}, first_value, options)); // same seed
    // Every order equally extreme: p = (1 + B) / (1 + B) = 1.
    const auto constant = [](std::span<const double>) { return 0.0; };
    CHECK(bb::stats::permutation_p({1, 2, 3}, constant, options) == 1.0);
    // Nothing as extreme as the observed: p = 1 / (1 + B), never 0.
    const auto sorted = [](std::span<const double> order) {
        return std::is_sorted(order.begin(), order.end()) ? 1.0 : 0.0;
    };
    std::vector<double> many(12);
    std::iota(many.begin(), many.end(), 0.0);
    options.draws = 99;
    CHECK(bb::stats::permutation_p(many, sorted, options) == Approx(1.0 / 100));
    // Stopping once p is above 0.05: the first value of p past it, (1 + 5) / 100.
    CHECK(bb::stats::permutation_p({1, 2, 3}, constant, options, 0.05) == Approx(6.0 / 100));
}
