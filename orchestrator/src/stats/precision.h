#pragma once
// Precision of an answered interval, for precision-based repeats (issue 15, item 5:
// `repeats: {until: {endpoint: …, ci_halfwidth: 2%}}`): a rule about how narrow the interval
// is, never about significance, so stopping on it cannot bias a test.
#include "stats/result.h"

#include <cmath>

namespace bb::stats {

// Half the interval's width over |estimate|: 0.02 for 100 [98, 102]. NaN when there is no
// answered interval (n too small for the level) or the estimate is 0.
inline double relative_half_width(const Result& result) {
    if (!result.answered() || !std::isfinite(result.interval.low) ||
        !std::isfinite(result.interval.high) || result.estimate == 0) {
        return k_nan;
    }
    return (result.interval.high - result.interval.low) / 2 / std::abs(result.estimate);
}

// True once the interval is answered and at most `target` wide on each side, relatively.
inline bool precise_enough(const Result& result, double target) {
    return relative_half_width(result) <= target;
}

} // namespace bb::stats
