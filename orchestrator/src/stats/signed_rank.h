#pragma once
// Paired by round: the Wilcoxon signed-rank test of the differences d = b − a of each round's
// pair, with the Hodges–Lehmann one-sample estimate (the median of the Walsh averages
// (d_i + d_j)/2, i ≤ j) and its exact interval (R's wilcox.test(paired = TRUE, conf.int = TRUE)).
//
// Zeros: dropped from the test (Wilcoxon's rule, as R does) — a zero says nothing about the
// direction; the estimate and interval use every difference, zeros included, so a run of
// identical pairs pulls the estimate to 0 instead of away from it. Ties among |d|: mid-ranks,
// and the exact p-value counts over those mid-ranks (conditional on the ties). Exact up to
// k_exact_pairs_signed differences, normal approximation with the ties correction above.
#include "stats/result.h"

#include <span>

namespace bb::stats {

constexpr std::string_view k_method_signed_rank = "Wilcoxon signed-rank, Walsh averages";
constexpr int k_exact_pairs_signed = 400;

// One sample of paired differences, tested and estimated around 0.
Result signed_rank(std::span<const double> differences, double level = 0.95);

// Pairs (a[i], b[i]) from the same round: shift b − a. a and b must have the same length.
Result signed_rank_shift(std::span<const double> a, std::span<const double> b, double level = 0.95);

// The same on log values, reported as the ratio b / a with its interval.
Result signed_rank_ratio(std::span<const double> a, std::span<const double> b, double level = 0.95);

} // namespace bb::stats
