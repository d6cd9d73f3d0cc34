#include "stats/median_interval.h"

#include "stats/sorted.h"

#include <cmath>
#include <fmt/format.h>

namespace bb::stats {

double binomial_half_cdf(int n, int k) {
    if (k < 0) {
        return 0;
    }
    if (k >= n) {
        return 1;
    }
    // Terms in log space: 2^−n underflows long before n reaches a large run's boot count.
    const double log_half_n = -static_cast<double>(n) * std::log(2.0);
    const double log_n_factorial = std::lgamma(n + 1.0);
    double cdf = 0;
    for (int j = 0; j <= k; ++j) {
        cdf += std::exp(log_n_factorial - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) +
                        log_half_n);
    }
    return std::min(cdf, 1.0);
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
    // Walk k up while [x(k), x(n+1−k)] still reaches the level; the tail below k grows.
    int k = 0;
    double coverage = 0;
    double tail = 0; // P(B ≤ k − 1) for the candidate k
    for (int candidate = 1; candidate <= (n + 1) / 2; ++candidate) {
        tail = binomial_half_cdf(n, candidate - 1);
        const double candidate_coverage = 1 - 2 * tail;
        if (candidate_coverage < level) {
            break;
        }
        k = candidate;
        coverage = candidate_coverage;
    }
    if (k == 0) {
        // Even [min, max] falls short: say so, and show what [min, max] does cover.
        result.interval = {sorted.front(), sorted.back()};
        result.confidence = 1 - 2 * binomial_half_cdf(n, 0);
        result.insufficient =
            fmt::format("n={}: [min, max] covers only {:.1f} %, below the {:.0f} % asked for", n,
                        100 * result.confidence, 100 * level);
        return result;
    }
    result.interval = {sorted[static_cast<size_t>(k - 1)], sorted[static_cast<size_t>(n - k)]};
    result.confidence = coverage;
    return result;
}

} // namespace bb::stats
