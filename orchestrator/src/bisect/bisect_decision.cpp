#include "bisect/bisect_decision.h"

#include "stats/sorted.h"
#include "stats/two_sample.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <vector>

namespace bb {

namespace {

// The two-sided exact Mann–Whitney p of two groups of n that do not overlap: the smallest p
// n rounds can give.
double smallest_p(int n) {
    double central_binomial = 1; // C(2n, n), built up as a product to stay exact enough
    for (int i = 1; i <= n; ++i) {
        central_binomial = central_binomial * (n + i) / i;
    }
    return 2 / central_binomial;
}

// newer − older at this look, or why there is none (a look before the first).
stats::Result look(std::span<const double> older, std::span<const double> newer, int rounds,
                   const BisectLimits& limits) {
    const LookSchedule schedule = look_schedule(limits);
    if (rounds < schedule.first_look) {
        stats::Result none;
        none.insufficient =
            fmt::format("{} rounds, no look before {}", rounds, schedule.first_look);
        return none;
    }
    return stats::hodges_lehmann_shift(older, newer, schedule.level);
}

// The shift newer − older has moved: its interval excludes 0, or with a min_effect, lies
// wholly beyond ± that fraction of the older kernel's median.
bool moved(const stats::Result& shift, std::span<const double> older, const BisectLimits& limits) {
    if (!shift.answered()) {
        return false;
    }
    const double margin =
        limits.min_effect > 0 ? limits.min_effect * std::abs(stats::sorted_median_of(older)) : 0;
    return shift.interval.low > margin || shift.interval.high < -margin;
}

StepVerdict undecided_at_max(StepVerdict verdict, const BisectLimits& limits) {
    if (verdict.rounds >= limits.max_boots) {
        verdict.kind = StepVerdict::Kind::Undecided;
    }
    return verdict;
}

// The earliest look of a step of at most `max_boots` rounds: the fewest rounds n whose exact
// test can reach α / (max_boots − n + 1), the level of each of the looks n..max_boots. Both
// sides move the same way with n (p falls, the per-look α grows), so the first n that fits is
// the answer; none when even max_boots cannot.
std::optional<int> earliest_look(int max_boots, double alpha) {
    for (int first = 1; first <= max_boots; ++first) {
        if (smallest_p(first) <= alpha / (max_boots - first + 1)) {
            return first;
        }
    }
    return std::nullopt;
}

} // namespace

LookSchedule look_schedule(const BisectLimits& limits) {
    if (limits.max_boots < 1 || !(limits.alpha > 0 && limits.alpha < 0.5) ||
        !(limits.min_effect >= 0 && limits.min_effect < 1)) {
        throw Error(fmt::format("bisect: --max-boots must be at least 1, --alpha in (0, 0.5) and "
                                "--min-effect a percentage from 0 to 100; got {}, {} and {}",
                                limits.max_boots, limits.alpha, limits.min_effect * 100));
    }
    const std::optional<int> first = earliest_look(limits.max_boots, limits.alpha);
    if (!first) {
        int enough = limits.max_boots + 1;
        while (!earliest_look(enough, limits.alpha)) {
            ++enough;
        }
        throw Error(fmt::format("bisect: --max-boots {} is too few: even {} boots of each "
                                "kernel that do not overlap cannot reach α = {}; use "
                                "--max-boots {} or more",
                                limits.max_boots, limits.max_boots, limits.alpha, enough));
    }
    const int looks = limits.max_boots - *first + 1;
    return {*first, looks, 1 - limits.alpha / looks};
}

bool decided(const StepVerdict& verdict) {
    return verdict.kind == StepVerdict::Kind::Changed ||
           verdict.kind == StepVerdict::Kind::LikeOld || verdict.kind == StepVerdict::Kind::LikeNew;
}

StepVerdict judge_endpoints(std::span<const double> base, std::span<const double> end, int rounds,
                            const BisectLimits& limits) {
    StepVerdict verdict;
    verdict.rounds = rounds;
    verdict.shift = look(base, end, rounds, limits);
    if (moved(verdict.shift, base, limits)) {
        verdict.kind = StepVerdict::Kind::Changed;
        return verdict;
    }
    return undecided_at_max(verdict, limits);
}

StepVerdict judge_midpoint(std::span<const double> old_values, std::span<const double> mid,
                           std::span<const double> new_values, int rounds,
                           const BisectLimits& limits) {
    StepVerdict verdict;
    verdict.rounds = rounds;
    verdict.shift = look(old_values, mid, rounds, limits);
    verdict.upper_shift = look(mid, new_values, rounds, limits);
    // The first change is what a bisect names: a middle prefix that has moved wins.
    if (moved(verdict.shift, old_values, limits)) {
        verdict.kind = StepVerdict::Kind::LikeNew;
        return verdict;
    }
    if (moved(verdict.upper_shift, mid, limits)) {
        verdict.kind = StepVerdict::Kind::LikeOld;
        return verdict;
    }
    return undecided_at_max(verdict, limits);
}

} // namespace bb
