#include "bootstrap_bca.h"

#include "stats/normal.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <random>
#include <vector>

namespace bb::test {

using stats::normal_cdf;
using stats::normal_quantile;
using stats::Result;

namespace {

std::vector<double> resampled_statistics(std::span<const double> sample, const Statistic& statistic,
                                         const BootstrapOptions& options) {
    std::mt19937_64 rng(options.seed);
    std::uniform_int_distribution<size_t> pick(0, sample.size() - 1);
    std::vector<double> resample(sample.size());
    std::vector<double> draws(static_cast<size_t>(options.resamples));
    for (double& draw : draws) {
        for (double& value : resample) {
            value = sample[pick(rng)];
        }
        draw = statistic(resample);
    }
    std::sort(draws.begin(), draws.end());
    return draws;
}

// The acceleration from the jackknife: the skewness of the leave-one-out influence values.
double acceleration(std::span<const double> sample, const Statistic& statistic) {
    std::vector<double> leave_one_out(sample.size());
    std::vector<double> rest;
    for (size_t i = 0; i < sample.size(); ++i) {
        rest.assign(sample.begin(), sample.end());
        rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
        leave_one_out[i] = statistic(rest);
    }
    double mean = 0;
    for (double value : leave_one_out) {
        mean += value / static_cast<double>(leave_one_out.size());
    }
    double squares = 0;
    double cubes = 0;
    for (double value : leave_one_out) {
        const double d = mean - value;
        squares += d * d;
        cubes += d * d * d;
    }
    return squares == 0 ? 0 : cubes / (6 * std::pow(squares, 1.5));
}

double sorted_quantile(const std::vector<double>& sorted, double q) {
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<size_t>(std::floor(position));
    const size_t upper = std::min(lower + 1, sorted.size() - 1);
    return sorted[lower] +
           (position - static_cast<double>(lower)) * (sorted[upper] - sorted[lower]);
}

} // namespace

Result bca_interval(std::span<const double> sample, const Statistic& statistic,
                    std::string_view name, double level, const BootstrapOptions& options) {
    Result result;
    result.method = fmt::format("BCa bootstrap of the {} ({} resamples, seed {}), approximate",
                                name, options.resamples, options.seed);
    result.exact = false;
    result.n_a = static_cast<int>(sample.size());
    if (result.n_a < k_min_bootstrap_n) {
        result.insufficient =
            fmt::format("n={} < {}: a bootstrap interval would not hold its level", result.n_a,
                        k_min_bootstrap_n);
        return result;
    }
    result.estimate = statistic(sample);
    const auto draws = resampled_statistics(sample, statistic, options);
    // Bias correction: where the estimate falls in its own bootstrap distribution (ties ½).
    const auto below =
        std::lower_bound(draws.begin(), draws.end(), result.estimate) - draws.begin();
    const auto at_or_below =
        std::upper_bound(draws.begin(), draws.end(), result.estimate) - draws.begin();
    const double share =
        (static_cast<double>(below + at_or_below) / 2) / static_cast<double>(draws.size());
    if (share <= 0 || share >= 1) {
        result.insufficient = "every resample fell on one side of the estimate";
        return result;
    }
    const double z0 = normal_quantile(share);
    const double a = acceleration(sample, statistic);
    const auto adjusted = [&](double tail) {
        const double z = z0 + normal_quantile(tail);
        return normal_cdf(z0 + z / (1 - a * z));
    };
    const double alpha = (1 - level) / 2;
    result.interval = {sorted_quantile(draws, adjusted(alpha)),
                       sorted_quantile(draws, adjusted(1 - alpha))};
    result.confidence = level;
    return result;
}

} // namespace bb::test
