#pragma once
// A Monte Carlo permutation p-value: the statistic of the values as observed against the same
// statistic of `draws` seeded random orders of them, p = (1 + #{draws ≥ observed}) / (1 + draws).
// Counting the observed order among the draws keeps p ≥ 1 / (1 + draws) and makes the test
// valid at any level (P(p ≤ α) ≤ α under exchangeability), where hits / draws would not be.
// The orders come from util/seeded_shuffle (an unbiased bounded draw over std::mt19937_64),
// so a seed gives the same p on every standard library.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace bb::stats {

struct PermutationOptions {
    int draws = 9'999;
    std::uint64_t seed = 20240229;
};

// `statistic` sees the values in one order and says how extreme it is (larger: more extreme; a
// two-sided test passes a distance). It should be exact (integers, or one rational per order
// computed the same way) so that an order as extreme as the observed one counts as ≥.
//
// `stop_above`: a test that only needs the decision at a level may stop drawing once p can no
// longer come down to it; p is then the (already larger) value reached so far. 1: never stop.
double permutation_p(std::vector<double> values,
                     const std::function<double(std::span<const double>)>& statistic,
                     const PermutationOptions& options, double stop_above = 1);

} // namespace bb::stats
