#pragma once
// Mid-ranks, doubled so that they stay integers (a tie of two at ranks 3 and 4 gets 7, not
// 3.5): the exact distributions of rank statistics with ties are counted over these integers.
#include <span>
#include <vector>

namespace bb::stats {

struct DoubledRanks {
    std::vector<long> ranks;    // 2 × mid-rank of each value, in input order
    std::vector<int> tie_sizes; // the size of every group of equal values (1 when untied)
    bool has_ties = false;

    // Σ (t³ − t) over the tie groups: what ties take off a rank statistic's variance.
    double tie_correction() const;
};

DoubledRanks doubled_ranks(std::span<const double> values);

} // namespace bb::stats
