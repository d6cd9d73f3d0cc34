#include "stats/holm.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace bb::stats {

std::vector<double> holm_adjust(std::span<const double> p_values) {
    const size_t m = p_values.size();
    std::vector<size_t> order(m);
    std::iota(order.begin(), order.end(), size_t{0});
    // NaNs sort last: they are never adjusted and never lower another test's threshold.
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        const double px = std::isnan(p_values[x]) ? 2.0 : p_values[x];
        const double py = std::isnan(p_values[y]) ? 2.0 : p_values[y];
        return px < py;
    });
    std::vector<double> adjusted(m, std::numeric_limits<double>::quiet_NaN());
    double running = 0;
    for (size_t rank = 0; rank < m; ++rank) {
        const double p = p_values[order[rank]];
        if (std::isnan(p)) {
            continue;
        }
        running = std::max(running, std::min(1.0, static_cast<double>(m - rank) * p));
        adjusted[order[rank]] = running;
    }
    return adjusted;
}

} // namespace bb::stats
