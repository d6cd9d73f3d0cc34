// The bisection of a series (bisect/bisection.h): its steps on scripted verdicts, and the whole
// procedure with the decision rule on simulated boots whose change point is known — the error
// rates docs/bisect.md quotes come from these.
#include "bisect/bisection.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <iostream>
#include <random>
#include <vector>

namespace {

using Kind = bb::StepVerdict::Kind;

bb::StepOutcome outcome(bb::BisectStep step, Kind kind, double estimate = 0.3) {
    bb::StepOutcome result{step, {}};
    result.verdict.kind = kind;
    result.verdict.shift.estimate = estimate;
    return result;
}

} // namespace

TEST_CASE("bisection: a change in patch 3 of 4 takes three steps", "[bisect]") {
    bb::Bisection bisection(4);
    REQUIRE(bisection.next_step() == bb::BisectStep{0, 4, -1});
    bisection.record(outcome({0, 4, -1}, Kind::Changed, 0.3));
    REQUIRE(bisection.next_step() == bb::BisectStep{0, 2, 4});
    bisection.record(outcome({0, 2, 4}, Kind::LikeOld));
    REQUIRE(bisection.next_step() == bb::BisectStep{2, 3, 4});
    bisection.record(outcome({2, 3, 4}, Kind::LikeNew, 0.31));
    CHECK(bisection.finished());
    REQUIRE(bisection.found());
    CHECK(bisection.first_changed_patch() == 3);
    // The last step booted prefix 2 beside prefix 3: patch 3's own effect.
    const auto effect = bisection.effect();
    REQUIRE(effect);
    CHECK(effect->older == 2);
    CHECK(effect->newer == 3);
    CHECK(effect->shift->estimate == 0.31);
    CHECK(bisection.undecided_step() == nullptr);
}

TEST_CASE("bisection: the last patch's effect is the upper shift of the last step", "[bisect]") {
    bb::Bisection bisection(4);
    bisection.record(outcome({0, 4, -1}, Kind::Changed));
    bisection.record(outcome({0, 2, 4}, Kind::LikeOld));
    bb::StepOutcome last = outcome({2, 3, 4}, Kind::LikeOld);
    last.verdict.upper_shift.estimate = 0.29;
    bisection.record(last);
    REQUIRE(bisection.found());
    CHECK(bisection.first_changed_patch() == 4);
    const auto effect = bisection.effect();
    REQUIRE(effect);
    CHECK(effect->older == 3);
    CHECK(effect->newer == 4);
    CHECK(effect->shift->estimate == 0.29);
}

TEST_CASE("bisection: one patch is one step, and an undecided step ends it", "[bisect]") {
    bb::Bisection one(1);
    one.record(outcome({0, 1, -1}, Kind::Changed));
    CHECK(one.found());
    CHECK(one.first_changed_patch() == 1);
    CHECK(one.effect()->older == 0);

    bb::Bisection stuck(4);
    stuck.record(outcome({0, 4, -1}, Kind::Changed));
    stuck.record(outcome({0, 2, 4}, Kind::Undecided));
    CHECK(stuck.finished());
    CHECK_FALSE(stuck.found());
    CHECK_FALSE(stuck.effect());
    CHECK(stuck.undecided_step()->step == bb::BisectStep{0, 2, 4});
    CHECK(stuck.range_start() == 0);
    CHECK(stuck.first_changed_patch() == 4); // the change lies in patches 1..4
}

TEST_CASE("bisection: an outcome of another step is a bug", "[bisect]") {
    bb::Bisection bisection(4);
    CHECK_THROWS_AS(bisection.record(outcome({0, 2, 4}, Kind::Changed)), std::logic_error);
    CHECK_THROWS_AS(bisection.record(outcome({0, 4, -1}, Kind::Continue)), std::logic_error);
    CHECK_THROWS_AS(bb::Bisection(0), std::invalid_argument);
}

namespace {

// Simulated boots of prefix k: a base time, the shifts of the patches up to k, and noise like a
// TCG boot's (normal jitter plus, with `outlier_rate`, a boot delayed by a busy host).
struct SimulatedSeries {
    std::vector<double> patch_shift; // per patch, 1-based positions in index 0..N-1
    double jitter = 0.05;
    double outlier_rate = 0;
    double outlier = 0.5;

    double boot(int prefix, std::mt19937_64& rng) const {
        double time = 1.5;
        for (int i = 0; i < prefix; ++i) {
            time += patch_shift[static_cast<size_t>(i)];
        }
        time += std::normal_distribution<double>(0, jitter)(rng);
        if (std::uniform_real_distribution<double>(0, 1)(rng) < outlier_rate) {
            time += outlier;
        }
        return time;
    }
};

struct Tally {
    int trials = 0;
    int named[16] = {};
    int undecided = 0;
    long boots = 0;
};

// One bisection to its end: every step boots one round at a time until its verdict.
void bisect_once(const SimulatedSeries& series, const bb::BisectLimits& limits,
                 std::mt19937_64& rng, Tally& tally) {
    bb::Bisection bisection(static_cast<int>(series.patch_shift.size()));
    while (const auto step = bisection.next_step()) {
        std::vector<double> older;
        std::vector<double> newer;
        std::vector<double> upper;
        bb::StepVerdict verdict;
        for (int round = 1; verdict.kind == Kind::Continue; ++round) {
            older.push_back(series.boot(step->older, rng));
            newer.push_back(series.boot(step->newer, rng));
            if (step->middle()) {
                upper.push_back(series.boot(step->upper, rng));
            }
            verdict = step->middle() ? bb::judge_midpoint(older, newer, upper, round, limits)
                                     : bb::judge_endpoints(older, newer, round, limits);
        }
        tally.boots += static_cast<long>(older.size() + newer.size() + upper.size());
        bisection.record({*step, verdict});
    }
    ++tally.trials;
    if (bisection.found()) {
        ++tally.named[bisection.first_changed_patch()];
    } else {
        ++tally.undecided;
    }
}

Tally simulate(const SimulatedSeries& series, int trials, std::uint64_t seed, int max_boots = 20) {
    std::mt19937_64 rng(seed);
    Tally tally;
    for (int i = 0; i < trials; ++i) {
        // As run_bisect does: α = 0.05 for the whole bisection, split over its steps.
        const int steps = bb::max_steps(static_cast<int>(series.patch_shift.size()));
        bisect_once(series, {max_boots, 0.05 / steps}, rng, tally);
    }
    return tally;
}

double share(int count, const Tally& tally) {
    return static_cast<double>(count) / tally.trials;
}

int wrong(const Tally& tally, int right) {
    return tally.trials - tally.undecided - tally.named[right];
}

SimulatedSeries one_change(int patches, int position, double shift, double outlier_rate = 0) {
    SimulatedSeries series{std::vector<double>(static_cast<size_t>(patches), 0.0)};
    series.patch_shift[static_cast<size_t>(position - 1)] = shift;
    series.outlier_rate = outlier_rate;
    return series;
}

} // namespace

TEST_CASE("bisect simulation: 300 ms in patch 3 of 4 is named, in few boots", "[bisect]") {
    // 300 ms against 50 ms of jitter: every step decides at its first look (7 rounds: α 0.05
    // over 3 steps and 14 looks each).
    const Tally clean = simulate(one_change(4, 3, 0.3), 400, 1);
    CHECK(share(clean.named[3], clean) >= 0.99);
    CHECK(static_cast<double>(clean.boots) / clean.trials <= 60);
}

TEST_CASE("bisect simulation: a wrong patch is rare, and hard cases take more boots", "[bisect]") {
    // A busy host delays one boot in ten by half a second.
    const Tally noisy = simulate(one_change(4, 3, 0.3, 0.10), 400, 2);
    CHECK(wrong(noisy, 3) <= 4); // 1 %
    CHECK(share(noisy.named[3], noisy) >= 0.85);
    // 200 ms against 50 ms, a speed-up, anywhere in 7 patches.
    for (int position = 1; position <= 7; ++position) {
        const Tally tally = simulate(one_change(7, position, -0.2), 200, 10 + position);
        INFO("change in patch " << position);
        CHECK(wrong(tally, position) <= 2); // 1 %
        CHECK(share(tally.named[position], tally) >= 0.97);
    }
}

TEST_CASE("bisect simulation: no change names no patch", "[bisect]") {
    const Tally null = simulate({{0, 0, 0, 0}}, 400, 3);
    CHECK(share(null.undecided, null) >= 0.95);
}

TEST_CASE("bisect simulation: a change split over two patches names the first", "[bisect]") {
    const Tally split = simulate({{0, 0.15, 0.15, 0}}, 400, 4);
    CHECK(share(split.named[1] + split.named[4], split) <= 0.02);
    CHECK(split.named[2] > split.named[3]);
}

// The table of docs/bisect.md ("Error rate"): `unit_tests "[bisect-table]"` prints it.
TEST_CASE("bisect simulation table", "[.][bisect-table]") {
    struct Case {
        const char* name;
        SimulatedSeries series;
        int max_boots;
    };
    const std::vector<Case> cases{
        {"+300 ms in patch 3 of 4", one_change(4, 3, 0.3), 10},
        {"+300 ms in patch 3 of 4, 1 boot in 10 +0.5 s", one_change(4, 3, 0.3, 0.1), 10},
        {"same, --max-boots 20", one_change(4, 3, 0.3, 0.1), 20},
        {"-200 ms in patch 5 of 7", one_change(7, 5, -0.2), 10},
        {"same, --max-boots 20", one_change(7, 5, -0.2), 20},
        {"no change in 4", one_change(4, 1, 0.0), 10},
        {"+150 ms in patch 2 and in patch 3 of 4", {{0, 0.15, 0.15, 0}}, 10},
    };
    std::string table = "| case | --max-boots | patch named (share of trials) | undecided | "
                        "boots (mean) |\n|---|---|---|---|---|\n";
    for (const auto& c : cases) {
        const Tally tally = simulate(c.series, 2000, 99, c.max_boots);
        std::string named;
        for (int patch = 1; patch < 16; ++patch) {
            if (tally.named[patch] > 0) {
                named += fmt::format("{}{}: {:.2f} %", named.empty() ? "" : ", ", patch,
                                     100.0 * share(tally.named[patch], tally));
            }
        }
        table += fmt::format("| {} | {} | {} | {:.2f} % | {:.0f} |\n", c.name, c.max_boots,
                             named.empty() ? "none" : named, 100.0 * share(tally.undecided, tally),
                             static_cast<double>(tally.boots) / tally.trials);
    }
    std::cout << table; // WARN would wrap the rows
    CHECK(!table.empty());
}
