#include "pipeline/precision_stop.h"

#include "stats/median_interval.h"
#include "stats/precision.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

// "±3.1 % > ±2.0 %", or why there is no interval to measure.
std::string describe_width(double half_width, double target) {
    return std::isfinite(half_width) ? fmt::format("±{:.1f} % {} ±{:.1f} %", half_width * 100,
                                                   half_width <= target ? "≤" : ">", target * 100)
                                     : std::string("no 95 % interval of the used boots");
}

} // namespace

StopDecision precision_stop(const PrecisionTarget& target, int min_rounds, int max_rounds,
                            int rounds, std::span<const double> used_values) {
    if (rounds < min_rounds) {
        return {};
    }
    const stats::Result median = stats::median_interval(used_values);
    const double half_width = stats::relative_half_width(median);
    if (stats::precise_enough(median, target.ci_halfwidth)) {
        return {true, fmt::format("precision reached at n={} ({})", rounds,
                                  describe_width(half_width, target.ci_halfwidth))};
    }
    if (rounds >= max_rounds) {
        return {true, fmt::format("max reached (n={}, {})", rounds,
                                  describe_width(half_width, target.ci_halfwidth))};
    }
    return {};
}

} // namespace bb
