#pragma once
// Exact null distributions of rank statistics, as probability vectors indexed by the value of
// the statistic. Without ties they depend on the sample sizes only and are cached; with ties
// they are counted over the doubled mid-ranks actually observed (conditional on the ties).
#include <span>
#include <vector>

namespace bb::stats {

// P(U = u), u = 0 … m·n: U counts the pairs (x from the m, y from the n) with x > y, all N!
// orders equally likely. Cached per (m, n); m·n up to k_exact_pairs.
const std::vector<double>& mann_whitney_null(int m, int n);

// P(S = s) for the sum S of the doubled ranks of `chosen` items drawn without replacement
// from `ranks` (every subset equally likely): the permutation distribution with ties.
std::vector<double> doubled_rank_sum_null(std::span<const long> ranks, int chosen);

// Work (items × chosen × range of sums) above which the tied count is too slow to do per call.
bool doubled_rank_sum_is_cheap(std::span<const long> ranks, int chosen);

// P(S = s) for S = Σ of the doubled ranks whose sign is positive, each sign a fair coin: the
// signed-rank distribution, with ties when the ranks are mid-ranks. Untied: ranks 2, 4, … 2n.
std::vector<double> doubled_signed_rank_null(std::span<const long> ranks);

// Two-sided p-value of `observed` under `distribution` (index = value): twice the smaller
// tail, at most 1 — valid for the asymmetric distributions that ties produce.
double two_sided_p(const std::vector<double>& distribution, long observed);

// P(X ≤ value) under `distribution`; 0 below its range.
double cdf_at(const std::vector<double>& distribution, long value);

// The interval [s(k), s(M+1−k)] of M sorted statistics (order statistics, differences, Walsh
// averages) covers with 1 − 2·P(S ≤ k − 1) under a symmetric null S. The largest k (at most
// `max_k`) that still reaches `level`, and its coverage; k = 0, with the coverage of k = 1
// (the widest interval), when none does. `probability(j)` is P(S = j).
struct ConfidenceRank {
    long k = 0;
    double coverage = 0;
};

template <class Probability>
ConfidenceRank confidence_rank(long max_k, double level, Probability probability) {
    ConfidenceRank best;
    double tail = 0; // P(S ≤ k − 1)
    for (long k = 1; k <= max_k; ++k) {
        tail += probability(k - 1);
        if (1 - 2 * tail < level) {
            break;
        }
        best = {k, 1 - 2 * tail};
    }
    if (best.k == 0) {
        best.coverage = 1 - 2 * probability(0);
    }
    return best;
}

constexpr long k_exact_pairs = 2500; // m·n up to this: exact Mann–Whitney (e.g. 50 vs 50)

} // namespace bb::stats
