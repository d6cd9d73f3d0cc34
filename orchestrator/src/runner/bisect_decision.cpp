#include "runner/bisect_decision.h"

#include "stats/two_sample.h"
#include "util/error.h"

#include <fmt/format.h>
#include <optional>

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

// The shift at this look, or nothing when the look is before the first or the groups are empty.
StepVerdict look(std::span<const double> older, std::span<const double> newer, int rounds,
                 const BisectLimits& limits, bool one_sided) {
    StepVerdict verdict;
    verdict.rounds = rounds;
    const LookSchedule schedule = look_schedule(limits);
    if (rounds >= schedule.first_look) {
        verdict.shift = stats::hodges_lehmann_shift(
            older, newer, one_sided ? schedule.one_sided_level : schedule.level);
    } else {
        verdict.shift.insufficient =
            fmt::format("{} rounds, no look before {}", rounds, schedule.first_look);
    }
    return verdict;
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
    if (limits.max_boots < 1 || !(limits.alpha > 0 && limits.alpha < 0.5)) {
        throw Error(fmt::format("bisect: --max-boots must be at least 1 and --alpha in (0, 0.5); "
                                "got {} and {}",
                                limits.max_boots, limits.alpha));
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
    return {*first, looks, 1 - limits.alpha / looks, 1 - 2 * limits.alpha / looks};
}

bool decided(const StepVerdict& verdict) {
    return verdict.kind == StepVerdict::Kind::Changed ||
           verdict.kind == StepVerdict::Kind::LikeOld || verdict.kind == StepVerdict::Kind::LikeNew;
}

StepVerdict judge_endpoints(std::span<const double> base, std::span<const double> end, int rounds,
                            const BisectLimits& limits) {
    StepVerdict verdict = look(base, end, rounds, limits, false);
    if (verdict.shift.answered() && verdict.shift.interval.excludes(0)) {
        verdict.kind = StepVerdict::Kind::Changed;
        return verdict;
    }
    return undecided_at_max(verdict, limits);
}

StepVerdict judge_midpoint(std::span<const double> old_values, std::span<const double> mid,
                           double delta, int rounds, const BisectLimits& limits) {
    StepVerdict verdict = look(old_values, mid, rounds, limits, true);
    verdict.threshold = delta / 2;
    if (verdict.shift.answered()) {
        // Oriented so that the series' change is positive: "below half" is old's side.
        const double sign = delta < 0 ? -1 : 1;
        const double low = sign > 0 ? verdict.shift.interval.low : -verdict.shift.interval.high;
        const double high = sign > 0 ? verdict.shift.interval.high : -verdict.shift.interval.low;
        const double half = sign * verdict.threshold;
        if (high < half) {
            verdict.kind = StepVerdict::Kind::LikeOld;
            return verdict;
        }
        if (low > half) {
            verdict.kind = StepVerdict::Kind::LikeNew;
            return verdict;
        }
    }
    return undecided_at_max(verdict, limits);
}

} // namespace bb
