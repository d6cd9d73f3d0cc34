#include "stats/log_scale.h"

#include <cmath>

namespace bb::stats {

std::optional<std::vector<double>> logs_of(std::span<const double> values) {
    std::vector<double> logs;
    logs.reserve(values.size());
    for (double value : values) {
        if (!std::isfinite(value) || value <= 0) {
            return std::nullopt;
        }
        logs.push_back(std::log(value));
    }
    return logs;
}

Result to_ratio(Result shift) {
    shift.method += " on the log scale";
    shift.estimate = std::exp(shift.estimate);
    shift.interval = {std::exp(shift.interval.low), std::exp(shift.interval.high)};
    return shift;
}

} // namespace bb::stats
