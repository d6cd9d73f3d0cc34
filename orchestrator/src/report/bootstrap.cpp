#include "report/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

namespace bb {

namespace {

void check_options(const BootstrapOptions& options) {
    if (options.resamples < 1 || !(options.confidence > 0 && options.confidence < 1)) {
        throw std::invalid_argument("bootstrap needs at least one resample and a confidence "
                                    "level strictly between 0 and 1");
    }
}

double sorted_median(std::span<const double> sorted) {
    const size_t n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// Draws the median of a bootstrap resample (n values drawn with replacement from the sorted
// sample) in O(1) instead of O(n), so a report over 100k boots still takes milliseconds.
// Resampling draws n indices floor(n·U) with U uniform; floor is monotone, so the m-th smallest
// index is floor(n·U₍ₘ₎), and the m-th order statistic of n uniforms is Beta(m, n − m + 1).
// For an even n the next order statistic is U₍ₘ₊₁₎ = U₍ₘ₎ + (1 − U₍ₘ₎)·W, W the minimum of the
// n − m uniforms above it, i.e. Beta(1, n − m) = 1 − V^(1/(n − m)). The draws have exactly the
// distribution of naive resampling (the unit tests check it against a naive bootstrap).
class ResampledMedian {
  public:
    explicit ResampledMedian(std::span<const double> sorted)
        : m_sorted(sorted), m_n(sorted.size()), m_rank(m_n % 2 == 1 ? (m_n + 1) / 2 : m_n / 2),
          m_below(static_cast<double>(m_rank)), m_above(static_cast<double>(m_n - m_rank + 1)) {}

    double operator()(std::mt19937_64& rng) {
        const double below = m_below(rng);
        const double u = below / (below + m_above(rng));
        if (m_n % 2 == 1) {
            return m_sorted[index(u)];
        }
        const double v = m_uniform(rng);
        const double next =
            u + (1 - u) * (1 - std::pow(v, 1.0 / static_cast<double>(m_n - m_rank)));
        return (m_sorted[index(u)] + m_sorted[index(next)]) / 2;
    }

  private:
    size_t index(double u) const {
        // u can round to 1.0 for huge shapes; the largest valid index is n − 1.
        return std::min(m_n - 1, static_cast<size_t>(static_cast<double>(m_n) * u));
    }

    std::span<const double> m_sorted;
    size_t m_n;
    size_t m_rank;
    std::gamma_distribution<double> m_below;
    std::gamma_distribution<double> m_above;
    std::uniform_real_distribution<double> m_uniform;
};

double sorted_quantile(const std::vector<double>& sorted, double q) {
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<size_t>(std::floor(position));
    const size_t upper = std::min(lower + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

// Percentile interval of the bootstrap draws; draws that are not finite (a ratio over a zero
// median) carry no information about where the statistic lies and are dropped.
Interval percentile_interval(std::vector<double> draws, double confidence) {
    std::erase_if(draws, [](double value) { return !std::isfinite(value); });
    if (draws.empty()) {
        return {};
    }
    std::sort(draws.begin(), draws.end());
    const double tail = (1 - confidence) / 2;
    return {sorted_quantile(draws, tail), sorted_quantile(draws, 1 - tail)};
}

std::vector<double> sorted_copy(std::span<const double> values) {
    std::vector<double> copy(values.begin(), values.end());
    std::sort(copy.begin(), copy.end());
    return copy;
}

} // namespace

MedianEstimate bootstrap_median(std::span<const double> sample, const BootstrapOptions& options) {
    check_options(options);
    MedianEstimate estimate;
    estimate.n = static_cast<int>(sample.size());
    if (sample.empty()) {
        return estimate;
    }
    const auto sorted = sorted_copy(sample);
    estimate.median = sorted_median(sorted);
    std::mt19937_64 rng(options.seed);
    ResampledMedian draw(sorted);
    std::vector<double> medians(static_cast<size_t>(options.resamples));
    for (double& median : medians) {
        median = draw(rng);
    }
    estimate.ci = percentile_interval(std::move(medians), options.confidence);
    return estimate;
}

double relative_change(double before, double after) {
    return before == 0 ? std::numeric_limits<double>::quiet_NaN() : (after - before) / before;
}

Comparison compare_medians(std::span<const double> a, std::span<const double> b,
                           const BootstrapOptions& options, double threshold) {
    check_options(options);
    Comparison comparison;
    comparison.n_a = static_cast<int>(a.size());
    comparison.n_b = static_cast<int>(b.size());
    if (a.empty() || b.empty()) {
        return comparison; // nothing to compare; verdict stays Insufficient
    }
    const auto sorted_a = sorted_copy(a);
    const auto sorted_b = sorted_copy(b);
    comparison.median_a = sorted_median(sorted_a);
    comparison.median_b = sorted_median(sorted_b);
    comparison.difference = comparison.median_b - comparison.median_a;
    comparison.relative_change = relative_change(comparison.median_a, comparison.median_b);
    if (comparison.median_a != 0) {
        comparison.ratio = comparison.median_b / comparison.median_a;
    }

    std::mt19937_64 rng(options.seed);
    ResampledMedian draw_a(sorted_a);
    ResampledMedian draw_b(sorted_b);
    std::vector<double> differences(static_cast<size_t>(options.resamples));
    std::vector<double> ratios(differences.size());
    for (size_t i = 0; i < differences.size(); ++i) {
        const double median_a = draw_a(rng);
        const double median_b = draw_b(rng);
        differences[i] = median_b - median_a;
        ratios[i] = median_a == 0 ? std::numeric_limits<double>::quiet_NaN() : median_b / median_a;
    }
    comparison.difference_ci = percentile_interval(std::move(differences), options.confidence);
    comparison.ratio_ci = percentile_interval(std::move(ratios), options.confidence);

    using Verdict = Comparison::Verdict;
    if (comparison.n_a < k_min_samples_to_compare || comparison.n_b < k_min_samples_to_compare) {
        comparison.verdict = Verdict::Insufficient;
        return comparison;
    }
    // A threshold only ever makes a significant change insignificant, never the reverse.
    const double change = comparison.relative_change;
    const bool large_enough_up = threshold <= 0 || change > threshold;
    const bool large_enough_down = threshold <= 0 || -change > threshold;
    if (comparison.difference_ci.low > 0 && large_enough_up) {
        comparison.verdict = Verdict::Slower;
    } else if (comparison.difference_ci.high < 0 && large_enough_down) {
        comparison.verdict = Verdict::Faster;
    } else {
        comparison.verdict = Verdict::NoChange;
    }
    return comparison;
}

GeometricMean geometric_mean_ratio(std::span<const double> ratios,
                                   const BootstrapOptions& options) {
    check_options(options);
    GeometricMean result;
    std::vector<double> logs;
    for (double ratio : ratios) {
        if (std::isfinite(ratio) && ratio > 0) {
            logs.push_back(std::log(ratio));
        } else {
            ++result.skipped;
        }
    }
    result.n = static_cast<int>(logs.size());
    if (logs.empty()) {
        return result;
    }
    double sum_of_logs = 0;
    for (double value : logs) {
        sum_of_logs += value;
    }
    result.value = std::exp(sum_of_logs / static_cast<double>(logs.size()));

    std::mt19937_64 rng(options.seed);
    std::uniform_int_distribution<size_t> pick_item(0, logs.size() - 1);
    std::vector<double> means(static_cast<size_t>(options.resamples));
    for (double& mean : means) {
        double sum = 0;
        for (size_t i = 0; i < logs.size(); ++i) {
            sum += logs[pick_item(rng)];
        }
        mean = std::exp(sum / static_cast<double>(logs.size()));
    }
    result.ci = percentile_interval(std::move(means), options.confidence);
    return result;
}

std::string_view to_string(Comparison::Verdict verdict) {
    switch (verdict) {
    case Comparison::Verdict::Faster:
        return "faster";
    case Comparison::Verdict::Slower:
        return "slower";
    case Comparison::Verdict::NoChange:
        return "no change";
    case Comparison::Verdict::Insufficient:
        return "insufficient data";
    }
    return "?";
}

} // namespace bb
