#pragma once
// Change points over a whole nightly history: the nights where the level of boot time moved,
// each with its size. Input: one value per night, the night's median boot time, in the order
// the nights ran (stats/night_history.h). Method, and why each part:
//
// - The night is the unit. Boots of one night share that night's host state, so a boot-level
//   test counts night-to-night noise as evidence: treating the boots of an A/A history as
//   independent flags most histories (the calibration test measures it). Nights are
//   exchangeable under "nothing changed", boots across nights are not.
// - Log scale of the night medians: a shift is a ratio, and a median is not moved by one odd
//   boot.
// - Rank CUSUM: for a segment of n nights with doubled mid-ranks R (ties averaged), centered
//   c = R − (n + 1), the statistic is max over the admissible split k of S_k² / (k·(n − k)),
//   S_k = c₁ + … + c_k: the standardized Mann–Whitney statistic of the first k nights against
//   the rest. Ranks make it distribution-free (a heavy-tailed night cannot dominate it); the
//   standardization lets a split near a segment's end be found as readily as one in the
//   middle. It detects; it does not locate: once several splits separate the nights perfectly
//   their ranks score alike (a clean step at night 7 was placed at night 6 or 5).
// - The location of a detected step: the admissible split with the largest least-squares size
//   of the step on the log scale, k·(n − k)/n · (mean after − mean before)².
// - Permutation over nights: the p-value compares the statistic with that of random orders of
//   the segment's nights (stats/permutation_p.h), exact under exchangeable nights whatever
//   their distribution, unlike the asymptotic bridge of a CUSUM at 20 nights.
// - Binary segmentation at level α·n_s/N: the whole history (n_s = N) is tested at α, so an
//   A/A history is flagged with probability at most α; a split found, both sides are tested
//   again, each at its share of α. The segments tested at one depth are disjoint, so their
//   levels add up to at most α (a weighted Bonferroni), which keeps false splits inside a
//   real level's segment within the family's budget.
// - Each point is then moved to the best-located split between its neighbouring points: between two
//   steps the CUSUM of the whole history is flat, so the split that found a step of a
//   staircase may name a night inside the middle level; between its neighbours only its own
//   step remains. The point keeps the p-value and level of the test that found it.
// - At least `min_nights` (3) nights on each side of a split: a level is a run of nights, not
//   one odd night.
// - The size: the Hodges–Lehmann ratio (after / before) of the night medians of the two
//   neighbouring segments, with the exact Mann–Whitney interval (stats/two_sample.h). 3
//   nights against 3 reach only 90 %: that interval is then marked insufficient.
#include "stats/permutation_p.h"
#include "stats/result.h"

#include <span>
#include <string>
#include <vector>

namespace bb::stats {

constexpr std::string_view k_method_change_points =
    "rank CUSUM, binary segmentation, permutation over nights";

struct ChangePointOptions {
    double alpha = 0.05; // the family's: the chance of flagging an A/A history
    int min_nights = 3;  // on each side of a split
    // Each segment's test: its own seed (this one with the segment's place mixed in).
    PermutationOptions permutation{.draws = 999, .seed = 30'2026};
    double level = 0.95; // of each size's interval
};

struct ChangePoint {
    int night = 0;        // the first night of the new level (0-based, in the history's order)
    double p_value = 1;   // of the split's permutation test
    double tested_at = 0; // the level it was tested at, α·n_s/N
    Result ratio;         // after / before, Hodges–Lehmann on the neighbouring segments
};

struct ChangePoints {
    std::vector<ChangePoint> points; // in night order
    int nights = 0;
    std::string insufficient; // why there was no scan at all (a value not positive)
};

// `night_medians`: each night's median boot time, nights in the order they ran.
ChangePoints change_points(std::span<const double> night_medians,
                           const ChangePointOptions& options = {});

// The nights at which the scan could see a step at all in a history of `nights` nights: the
// positions k (the first night of a new level) where a perfect step — every night after above
// every night before, each level in the order least favourable to the scan, so no other split
// separates them — reaches p <= alpha, with the draws the scan gives a whole history's test. At
// α 0.05 and 3 nights a side: 8 nights see a perfect step only at 4 | 4, 16 at every position.
std::vector<int> visible_step_positions(int nights, const ChangePointOptions& options = {});

// The scan's statistic on one segment's values: max over k in [min_side, n − min_side] of
// S_k² / (k·(n − k)) on centered doubled ranks, and the first k that reaches it (0 when the
// segment is shorter than 2·min_side).
struct CusumSplit {
    double statistic = 0;
    int split = 0;
};
CusumSplit rank_cusum(std::span<const double> values, int min_side);

} // namespace bb::stats
