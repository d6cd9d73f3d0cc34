#include "stats/change_points.h"

#include "stats/log_scale.h"
#include "stats/ranks.h"
#include "stats/two_sample.h"

#include <algorithm>

namespace bb::stats {

namespace {

// On values that are already centered ranks: exact (integers squared over integers, each
// quotient correctly rounded), so equally extreme orders compare equal.
CusumSplit centered_cusum(std::span<const double> centered, int min_side) {
    const int n = static_cast<int>(centered.size());
    CusumSplit best;
    double sum = 0;
    for (int k = 1; k < n - min_side + 1; ++k) {
        sum += centered[static_cast<size_t>(k - 1)];
        if (k < min_side) {
            continue;
        }
        const double statistic = sum * sum / (static_cast<double>(k) * (n - k));
        if (statistic > best.statistic || best.split == 0) {
            best = {statistic, k};
        }
    }
    return best;
}

std::vector<double> centered_ranks(std::span<const double> values) {
    const auto ranks = doubled_ranks(values).ranks;
    const auto center = static_cast<long>(values.size()) + 1;
    std::vector<double> centered;
    centered.reserve(ranks.size());
    for (long rank : ranks) {
        centered.push_back(static_cast<double>(rank - center));
    }
    return centered;
}

// Where a detected step lies: the admissible k with the largest least-squares size of the step
// on the log scale, k·(n − k)/n · (mean after − mean before)² (the first k on a tie). The rank
// statistic detects: it is distribution-free, but once several splits separate the nights
// perfectly their ranks score alike and it preferred the most balanced one, placing a clean
// step nights away from where it was (issue 48 item 5). The size tells them apart.
int step_location(std::span<const double> logs, int min_side) {
    const int n = static_cast<int>(logs.size());
    double total = 0;
    for (const double value : logs) {
        total += value;
    }
    int best_split = 0;
    double best_size = -1;
    double before = 0;
    for (int k = 1; k <= n - min_side; ++k) {
        before += logs[static_cast<size_t>(k - 1)];
        if (k < min_side) {
            continue;
        }
        const double step = (total - before) / (n - k) - before / k;
        const double size = static_cast<double>(k) * (n - k) / n * step * step;
        if (size > best_size) {
            best_split = k;
            best_size = size;
        }
    }
    return best_split;
}

struct Scan {
    std::span<const double> logs;
    const ChangePointOptions& options;
    std::vector<ChangePoint> points;

    // Tests [start, end) and, when it splits, both sides at their share of α.
    void segment(int start, int end) {
        const int n = end - start;
        const int min_side = std::max(1, options.min_nights);
        if (n < 2 * min_side) {
            return;
        }
        const auto centered =
            centered_ranks(logs.subspan(static_cast<size_t>(start), static_cast<size_t>(n)));
        const double level = options.alpha * n / static_cast<double>(logs.size());
        PermutationOptions permutation = options.permutation;
        permutation.seed +=
            static_cast<std::uint64_t>(start) * 1'000'003 + static_cast<std::uint64_t>(end);
        const double p = permutation_p(
            centered,
            [min_side](std::span<const double> order) {
                return centered_cusum(order, min_side).statistic;
            },
            permutation, level);
        if (p > level) {
            return;
        }
        ChangePoint point;
        point.night =
            start + step_location(logs.subspan(static_cast<size_t>(start), static_cast<size_t>(n)),
                                  min_side);
        point.p_value = p;
        point.tested_at = level;
        points.push_back(point);
        segment(start, point.night);
        segment(point.night, end);
    }
};

// Each point moved to the best split between its neighbours, until none moves (a few passes:
// each move raises that segment's statistic). Splits keep min_side nights on each side, so the
// points stay apart and in order.
void relocate(std::vector<ChangePoint>& points, std::span<const double> logs, int min_side) {
    for (int pass = 0; pass < 10; ++pass) {
        bool moved = false;
        for (size_t i = 0; i < points.size(); ++i) {
            const int from = i == 0 ? 0 : points[i - 1].night;
            const int to =
                i + 1 == points.size() ? static_cast<int>(logs.size()) : points[i + 1].night;
            const int best = step_location(
                logs.subspan(static_cast<size_t>(from), static_cast<size_t>(to - from)),
                std::max(1, min_side));
            if (best != 0 && from + best != points[i].night) {
                points[i].night = from + best;
                moved = true;
            }
        }
        if (!moved) {
            return;
        }
    }
}

} // namespace

namespace {
// Whether the scan's test finds a perfect step at k among n nights, each level falling within
// itself (doubled ranks centered), so that no other split separates the nights.
bool perfect_step_found(int nights, int k, int min_side, const ChangePointOptions& options) {
    std::vector<double> centered;
    for (int i = k - 1; i >= 0; --i) {
        centered.push_back(2.0 * (i + 1) - (nights + 1));
    }
    for (int i = nights - 1; i >= k; --i) {
        centered.push_back(2.0 * (i + 1) - (nights + 1));
    }
    // The seed the scan gives a whole history's test (Scan::segment(0, nights)): the answer is
    // the one the scan itself would give such a history, draws included.
    PermutationOptions permutation = options.permutation;
    permutation.seed += static_cast<std::uint64_t>(nights);
    const double p = permutation_p(
        centered,
        [min_side](std::span<const double> order) {
            return centered_cusum(order, min_side).statistic;
        },
        permutation, options.alpha);
    return p <= options.alpha;
}
} // namespace

std::vector<int> visible_step_positions(int nights, const ChangePointOptions& options) {
    const int min_side = std::max(1, options.min_nights);
    std::vector<int> visible;
    // The statistic standardizes the split, yet an edge split has the fewest orders as extreme:
    // found at the edge, a step is found everywhere (one test, even for a long history).
    if (nights >= 2 * min_side && perfect_step_found(nights, min_side, min_side, options)) {
        for (int k = min_side; k <= nights - min_side; ++k) {
            visible.push_back(k);
        }
        return visible;
    }
    for (int k = min_side; k <= nights - min_side; ++k) {
        if (perfect_step_found(nights, k, min_side, options)) {
            visible.push_back(k);
        }
    }
    return visible;
}

CusumSplit rank_cusum(std::span<const double> values, int min_side) {
    return centered_cusum(centered_ranks(values), std::max(1, min_side));
}

ChangePoints change_points(std::span<const double> night_medians,
                           const ChangePointOptions& options) {
    ChangePoints result;
    result.nights = static_cast<int>(night_medians.size());
    const auto logs = logs_of(night_medians);
    if (!logs) {
        result.insufficient = "a night's median is not positive: no log scale";
        return result;
    }
    Scan scan{*logs, options, {}};
    scan.segment(0, result.nights);
    auto points = std::move(scan.points);
    std::sort(points.begin(), points.end(),
              [](const ChangePoint& a, const ChangePoint& b) { return a.night < b.night; });
    relocate(points, *logs, options.min_nights);
    for (size_t i = 0; i < points.size(); ++i) {
        const auto from = static_cast<size_t>(i == 0 ? 0 : points[i - 1].night);
        const auto at = static_cast<size_t>(points[i].night);
        const auto to = i + 1 == points.size() ? night_medians.size()
                                               : static_cast<size_t>(points[i + 1].night);
        points[i].ratio = hodges_lehmann_ratio(night_medians.subspan(from, at - from),
                                               night_medians.subspan(at, to - at), options.level);
    }
    result.points = std::move(points);
    return result;
}

} // namespace bb::stats
