#include "stats/night_gate.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace bb::stats {

namespace {

bool positive_and_finite(double value) { return std::isfinite(value) && value > 0; }

} // namespace

NightGate night_gate(const std::vector<double>& earlier_medians, double tonight_median,
                     double level) {
    NightGate gate;
    gate.nights = static_cast<int>(earlier_medians.size());
    if (gate.nights < k_min_gate_nights) {
        gate.insufficient = fmt::format("{} earlier night{}: the night-level gate needs {}",
                                        gate.nights, gate.nights == 1 ? "" : "s",
                                        k_min_gate_nights);
        return gate;
    }
    std::vector<double> logs;
    for (const double median : earlier_medians) {
        if (!positive_and_finite(median)) {
            gate.insufficient = "an earlier night's median is not a positive number";
            return gate;
        }
        logs.push_back(std::log(median));
    }
    if (!positive_and_finite(tonight_median)) {
        gate.insufficient = "tonight has no positive median";
        return gate;
    }
    const double k = gate.nights;
    const double mean = std::accumulate(logs.begin(), logs.end(), 0.0) / k;
    double squares = 0;
    for (const double x : logs) {
        squares += (x - mean) * (x - mean);
    }
    gate.night_sd = std::sqrt(squares / (k - 1));
    const double y = std::log(tonight_median);
    gate.ratio = std::exp(y - mean);
    if (gate.night_sd <= 0) {
        gate.insufficient = "the earlier nights' medians are all equal: no spread to judge by";
        return gate;
    }
    const boost::math::students_t_distribution<double> t(k - 1);
    const double scale = gate.night_sd * std::sqrt(1 + 1 / k);
    const double half_width = boost::math::quantile(t, 1 - (1 - level) / 2) * scale;
    gate.expected = {std::exp(-half_width), std::exp(half_width)};
    gate.p_value = 2 * boost::math::cdf(boost::math::complement(t, std::abs(y - mean) / scale));
    return gate;
}

} // namespace bb::stats
