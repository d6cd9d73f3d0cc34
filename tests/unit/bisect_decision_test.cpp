// The decision rule of a bisect step (bisect/bisect_decision.h) on fixed data.
#include "bisect/bisect_decision.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <vector>

namespace {

using Kind = bb::StepVerdict::Kind;
const bb::BisectLimits k_limits{10, 0.05, 0};
const std::vector<double> k_base{1.50, 1.52, 1.49, 1.51, 1.53, 1.48, 1.50, 1.52, 1.49, 1.51};
const std::vector<double> k_slow{1.80, 1.82, 1.79, 1.81, 1.83, 1.78, 1.80, 1.82, 1.79, 1.81};

std::vector<double> first(const std::vector<double>& values, int n) {
    return {values.begin(), values.begin() + n};
}

} // namespace

TEST_CASE("bisect looks: the first look is the fewest rounds that can decide", "[bisect]") {
    // 10 rounds, α 0.05: looks at 5..10 (6 looks), each at α/6 = 0.0083 ≥ 2/C(10,5) = 0.0079.
    const bb::LookSchedule schedule = bb::look_schedule(k_limits);
    CHECK(schedule.first_look == 5);
    CHECK(schedule.looks == 6);
    CHECK(schedule.level == Approx(1 - 0.05 / 6));
    // One look only: 4 rounds reach 2/C(8,4) = 0.029 ≤ 0.05.
    const bb::LookSchedule four = bb::look_schedule({4, 0.05, 0});
    CHECK(four.first_look == 4);
    CHECK(four.looks == 1);
}

TEST_CASE("bisect looks: too few boots to ever decide is an error before any boot", "[bisect]") {
    const std::string message = bb::test::thrown_message<bb::Error>([] {
        bb::look_schedule({3, 0.05, 0});
    });
    CHECK(message == "bisect: --max-boots 3 is too few: even 3 boots of each kernel that do not "
                     "overlap cannot reach α = 0.05; use --max-boots 4 or more");
    CHECK_THROWS_AS(bb::look_schedule({10, 0.6, 0}), bb::Error);
}

TEST_CASE("bisect endpoints: no look before the first, then changed", "[bisect]") {
    const auto early = bb::judge_endpoints(first(k_base, 4), first(k_slow, 4), 4, k_limits);
    CHECK(early.kind == Kind::Continue);
    CHECK(early.shift.insufficient == "4 rounds, no look before 5");
    const auto changed = bb::judge_endpoints(first(k_base, 5), first(k_slow, 5), 5, k_limits);
    CHECK(changed.kind == Kind::Changed);
    CHECK(changed.shift.estimate == Approx(0.30).margin(0.011));
    CHECK(changed.shift.interval.low > 0.25);
    CHECK(bb::decided(changed));
}

TEST_CASE("bisect endpoints: the same kernel twice is undecided at max boots", "[bisect]") {
    std::vector<double> shuffled(k_base.rbegin(), k_base.rend());
    CHECK(bb::judge_endpoints(first(k_base, 9), first(shuffled, 9), 9, k_limits).kind ==
          Kind::Continue);
    const auto at_max = bb::judge_endpoints(k_base, shuffled, 10, k_limits);
    CHECK(at_max.kind == Kind::Undecided);
    CHECK(at_max.shift.interval.contains(0));
}

TEST_CASE("bisect middle: like the old end, like the new end, either sign", "[bisect]") {
    const auto base = first(k_base, 5);
    const auto slow = first(k_slow, 5);
    const auto like_old = bb::judge_midpoint(base, base, slow, 5, k_limits);
    CHECK(like_old.kind == Kind::LikeOld);
    CHECK(like_old.upper_shift.estimate == Approx(0.3).margin(0.011));
    CHECK(like_old.shift.interval.contains(0));
    CHECK(bb::judge_midpoint(base, slow, slow, 5, k_limits).kind == Kind::LikeNew);
    // A series that made it faster decides the same way.
    CHECK(bb::judge_midpoint(slow, base, base, 5, k_limits).kind == Kind::LikeNew);
    CHECK(bb::judge_midpoint(slow, slow, base, 5, k_limits).kind == Kind::LikeOld);
    CHECK(bb::judge_midpoint(first(k_base, 4), first(k_base, 4), first(k_slow, 4), 4, k_limits)
              .kind == Kind::Continue);
}

TEST_CASE("bisect middle: a change split over both halves names the first", "[bisect]") {
    std::vector<double> halfway;
    for (double value : k_base) {
        halfway.push_back(value + 0.15);
    }
    // The middle prefix has moved from the old end and differs from the new one: the first
    // change is in (old, mid].
    CHECK(bb::judge_midpoint(first(k_base, 5), first(halfway, 5), first(k_slow, 5), 5, k_limits)
              .kind == Kind::LikeNew);
}

TEST_CASE("bisect middle: three kernels alike are undecided at max boots", "[bisect]") {
    std::vector<double> reversed(k_base.rbegin(), k_base.rend());
    const auto at_max = bb::judge_midpoint(k_base, reversed, k_base, 10, k_limits);
    CHECK(at_max.kind == Kind::Undecided);
    CHECK(at_max.upper_shift.interval.contains(0));
}

TEST_CASE("bisect: failed boots count as rounds but bring no value", "[bisect]") {
    // 10 rounds booted, the newer kernel panicked every time: nothing to compare, undecided.
    const auto verdict = bb::judge_endpoints(k_base, {}, 10, k_limits);
    CHECK(verdict.kind == Kind::Undecided);
    CHECK_FALSE(verdict.shift.answered());
}

// Two builds of the same code booted ~4 % apart, cleanly separated (as a cold CI run saw on
// 2026-12-07: prefix-2, byte-identical to prefix-0, +42.7 ms [5.7, 107.0] over 7+7 boots):
// without a margin the wobble decides the step; with --min-effect 5 only the real change does.
TEST_CASE("bisect middle: --min-effect keeps a wobble from deciding a step", "[bisect]") {
    std::vector<double> wobble;
    for (double value : k_base) {
        wobble.push_back(value + 0.06);
    }
    const auto base = first(k_base, 5);
    const auto mid = first(wobble, 5);
    const auto slow = first(k_slow, 5);
    CHECK(bb::judge_midpoint(base, mid, slow, 5, k_limits).kind == Kind::LikeNew);
    const bb::BisectLimits margin{10, 0.05, 0.05};
    const auto verdict = bb::judge_midpoint(base, mid, slow, 5, margin);
    CHECK(verdict.kind == Kind::LikeOld); // +0.24 s over mid is beyond 5 % of 1.56 s
    CHECK(verdict.shift.interval.excludes(0));
    // The first step, too: a 20 % change is no move at a 30 % margin, and never decides.
    CHECK(bb::judge_endpoints(base, slow, 5, k_limits).kind == Kind::Changed);
    CHECK(bb::judge_endpoints(k_base, k_slow, 10, {10, 0.05, 0.30}).kind == Kind::Undecided);
    // A faster series is judged by the same margin, below the older median.
    CHECK(bb::judge_endpoints(first(k_slow, 5), base, 5, margin).kind == Kind::Changed);
    CHECK_THROWS_WITH(bb::look_schedule({10, 0.05, 1.5}),
                      Catch::Contains("--min-effect a percentage from 0 to 100"));
}
