#include "stats/benjamini_hochberg.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace bb::stats {

std::vector<double> benjamini_hochberg_adjust(std::span<const double> p_values) {
    const size_t m = p_values.size();
    std::vector<size_t> order;
    for (size_t i = 0; i < m; ++i) {
        if (!std::isnan(p_values[i])) {
            order.push_back(i);
        }
    }
    std::sort(order.begin(), order.end(),
              [&](size_t x, size_t y) { return p_values[x] < p_values[y]; });
    std::vector<double> adjusted(m, std::numeric_limits<double>::quiet_NaN());
    // From the largest p down, the running minimum keeps the q-values monotone in p.
    double running = 1;
    for (size_t rank = order.size(); rank-- > 0;) {
        const double p = p_values[order[rank]];
        running = std::min(running, static_cast<double>(m) * p / static_cast<double>(rank + 1));
        adjusted[order[rank]] = running;
    }
    return adjusted;
}

} // namespace bb::stats
