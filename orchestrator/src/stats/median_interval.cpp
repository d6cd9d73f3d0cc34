#include "stats/median_interval.h"

#include "stats/null_distributions.h"
#include "stats/sorted.h"

#include <cmath>
#include <fmt/format.h>

namespace bb::stats {

double binomial_half_pmf(int n, long j) {
    // In log space: 2^−n underflows long before n reaches a large run's boot count.
    const auto x = static_cast<double>(j);
    return std::exp(std::lgamma(n + 1.0) - std::lgamma(x + 1) - std::lgamma(n - x + 1) -
                    static_cast<double>(n) * std::log(2.0));
}

Result median_interval(std::span<const double> sample, double level) {
    Result result;
    result.method = k_method_order_statistic;
    result.n_a = static_cast<int>(sample.size());
    const int n = result.n_a;
    if (n == 0) {
        result.insufficient = "no values";
        return result;
    }
    const auto sorted = sorted_copy(sample);
    result.estimate = sorted_median(sorted);
    const ConfidenceRank rank =
        confidence_rank((n + 1) / 2, level, [n](long j) { return binomial_half_pmf(n, j); });
    const auto k = rank.k;
    if (k == 0) {
        // Even [min, max] falls short: say so, and show what [min, max] does cover.
        result.interval = {sorted.front(), sorted.back()};
        result.confidence = rank.coverage;
        result.insufficient =
            fmt::format("n={}: [min, max] covers only {:.1f} %, below the {:.0f} % asked for", n,
                        100 * result.confidence, 100 * level);
        return result;
    }
    result.interval = {sorted[static_cast<size_t>(k - 1)], sorted[static_cast<size_t>(n - k)]};
    result.confidence = rank.coverage;
    return result;
}

} // namespace bb::stats
