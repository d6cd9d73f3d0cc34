#pragma once
// The median of one sample with its distribution-free order-statistic interval: for sorted
// x(1) ≤ … ≤ x(n), [x(k), x(n+1−k)] covers the true median with probability
// 1 − 2·P(Binomial(n, ½) ≤ k − 1) whatever the distribution (continuous or not: with ties
// the coverage can only be higher). k is the largest rank that still reaches the level.
#include "stats/result.h"

#include <span>

namespace bb::stats {

constexpr std::string_view k_method_order_statistic = "order statistics (binomial), exact";

// Below 6 values no interval reaches 95 % ([min, max] covers 1 − 2^(1−n)): the result is
// then insufficient and carries [min, max] with the coverage it really has.
Result median_interval(std::span<const double> sample, double level = 0.95);

// P(Binomial(n, ½) = j): the chance that j of n values fall below the median.
double binomial_half_pmf(int n, long j);

} // namespace bb::stats
