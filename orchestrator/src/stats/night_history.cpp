#include "stats/night_history.h"

#include "stats/log_scale.h"
#include "stats/median_interval.h"

#include <algorithm>
#include <fmt/format.h>

namespace bb::stats {

std::vector<Result> night_medians(const NightBoots& nights, double level) {
    std::vector<Result> medians;
    medians.reserve(nights.size());
    for (const auto& boots : nights) {
        medians.push_back(median_interval(boots, level));
    }
    return medians;
}

NightVariance night_variance(const NightBoots& nights) {
    NightVariance variance;
    std::vector<std::vector<double>> logs;
    for (const auto& boots : nights) {
        if (boots.empty()) {
            continue;
        }
        auto night = logs_of(boots);
        if (!night) {
            variance.insufficient = "a boot time is not positive: no log scale";
            return variance;
        }
        variance.boots += static_cast<int>(night->size());
        logs.push_back(std::move(*night));
    }
    variance.nights = static_cast<int>(logs.size());
    const double k = variance.nights;
    const double n = variance.boots;
    if (variance.nights < 2 || variance.boots <= variance.nights) {
        variance.insufficient = fmt::format(
            "{} nights, {} boots: the components need two nights and a night of two boots",
            variance.nights, variance.boots);
        return variance;
    }
    double grand = 0;
    double squared_sizes = 0;
    for (const auto& night : logs) {
        for (double value : night) {
            grand += value;
        }
        squared_sizes += static_cast<double>(night.size() * night.size());
    }
    grand /= n;
    double between_sum = 0;
    double within_sum = 0;
    for (const auto& night : logs) {
        double mean = 0;
        for (double value : night) {
            mean += value;
        }
        mean /= static_cast<double>(night.size());
        between_sum += static_cast<double>(night.size()) * (mean - grand) * (mean - grand);
        for (double value : night) {
            within_sum += (value - mean) * (value - mean);
        }
    }
    const double ms_between = between_sum / (k - 1);
    const double ms_within = within_sum / (n - k);
    const double n0 = (n - squared_sizes / n) / (k - 1);
    variance.within = ms_within;
    variance.between = std::max(0.0, (ms_between - ms_within) / n0);
    return variance;
}

} // namespace bb::stats
