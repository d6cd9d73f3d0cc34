#include "report/statistics.h"

#include "stats/sorted.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace bb {

Summary summarize(std::vector<double> values) {
    Summary summary;
    summary.n = static_cast<int>(values.size());
    if (values.empty()) {
        return summary;
    }
    summary.mean = std::accumulate(values.begin(), values.end(), 0.0) / summary.n;
    if (summary.n > 1) {
        double squares = 0;
        for (double value : values) {
            squares += (value - summary.mean) * (value - summary.mean);
        }
        summary.stddev = std::sqrt(squares / (summary.n - 1));
    }
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    summary.min = *low;
    summary.max = *high;
    summary.median = stats::sorted_median_of(values);
    return summary;
}

std::vector<double> modified_z_scores(const std::vector<double>& values) {
    const double median = stats::sorted_median_of(values);
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (double value : values) {
        deviations.push_back(std::fabs(value - median));
    }
    const double mad = stats::sorted_median_of(deviations);
    std::vector<double> scores;
    scores.reserve(values.size());
    if (mad == 0) {
        // More than half the values are equal: fall back to the mean absolute deviation
        // (IBM's variant of the modified Z-score), so {5,5,5,5,100} still flags 100.
        double mean_ad = 0;
        for (double deviation : deviations) {
            mean_ad += deviation;
        }
        mean_ad /= static_cast<double>(deviations.size());
        for (double value : values) {
            scores.push_back(mean_ad == 0 ? 0 : (value - median) / (1.253314 * mean_ad));
        }
        return scores;
    }
    for (double value : values) {
        scores.push_back(0.6745 * (value - median) / mad);
    }
    return scores;
}

int count_outliers(const std::vector<double>& values, double threshold) {
    const auto scores = modified_z_scores(values);
    return static_cast<int>(std::count_if(
        scores.begin(), scores.end(), [threshold](double z) { return std::fabs(z) > threshold; }));
}

} // namespace bb
