#pragma once
// Two independent groups A and B (before, after): the Hodges–Lehmann shift — the median of
// the m·n differences y − x — with the Mann–Whitney interval of those differences and the
// Mann–Whitney two-sided p-value (what R's wilcox.test(conf.int = TRUE) reports).
//
// Exact up to m·n = k_exact_pairs: the p-value from the permutation distribution of the rank
// sum (with ties, counted over the mid-ranks observed), the interval from U's exact null
// distribution. With ties the closed interval stays conservative (it contains the interval of
// any tie-breaking jitter). Larger groups: normal approximation with the ties correction.
#include "stats/result.h"

#include <span>

namespace bb::stats {

constexpr std::string_view k_method_hodges_lehmann = "Hodges-Lehmann shift, Mann-Whitney";

// The Mann–Whitney test alone (the power simulation runs it thousands of times).
struct RankTest {
    double p_value = 1;
    bool exact = true;
};
RankTest mann_whitney_test(std::span<const double> a, std::span<const double> b);

// Estimate and interval of B − A. Insufficient when a group is empty or when no interval
// reaches `level` (3 vs 3: [min, max] of the differences covers 90 %; its p is never < 0.10).
Result hodges_lehmann_shift(std::span<const double> a, std::span<const double> b,
                            double level = 0.95);

// The same on log values, reported as the ratio B / A = exp(shift) with its interval.
// Insufficient when a value is not positive.
Result hodges_lehmann_ratio(std::span<const double> a, std::span<const double> b,
                            double level = 0.95);

} // namespace bb::stats
