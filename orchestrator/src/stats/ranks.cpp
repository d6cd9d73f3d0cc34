#include "stats/ranks.h"

#include <algorithm>
#include <numeric>

namespace bb::stats {

double DoubledRanks::tie_correction() const {
    double sum = 0;
    for (int t : tie_sizes) {
        sum += static_cast<double>(t) * t * t - t;
    }
    return sum;
}

DoubledRanks doubled_ranks(std::span<const double> values) {
    std::vector<size_t> order(values.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(),
              [&](size_t x, size_t y) { return values[x] < values[y]; });
    DoubledRanks result;
    result.ranks.resize(values.size());
    for (size_t first = 0; first < order.size();) {
        size_t end = first + 1;
        while (end < order.size() && values[order[end]] == values[order[first]]) {
            ++end;
        }
        // Positions first+1 … end (1-based) share the mid-rank (first + 1 + end) / 2.
        const long doubled = static_cast<long>(first + 1 + end);
        for (size_t i = first; i < end; ++i) {
            result.ranks[order[i]] = doubled;
        }
        result.tie_sizes.push_back(static_cast<int>(end - first));
        result.has_ties = result.has_ties || end - first > 1;
        first = end;
    }
    return result;
}

} // namespace bb::stats
