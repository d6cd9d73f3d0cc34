#pragma once
// What every statistical answer carries: which method produced it, on how many boots, the
// estimate, its interval with the coverage that interval actually has, a p-value where there
// is a test, and why there is no answer when there is none. Knows no database and no output.
#include <limits>
#include <string>
#include <string_view>

namespace bb::stats {

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

// A closed interval; both ends NaN when there was nothing to estimate from.
struct Interval {
    double low = k_nan;
    double high = k_nan;

    bool contains(double value) const { return low <= value && value <= high; }
    bool excludes(double value) const { return low > value || high < value; }
};

struct Result {
    std::string method; // e.g. "Hodges-Lehmann, exact Mann-Whitney": printed as is
    bool exact = true;  // false: normal approximation or resampling
    int n_a = 0;        // the sample (one-sample methods) or group A
    int n_b = 0;        // group B; 0 for one-sample methods
    double estimate = k_nan;
    Interval interval;
    // The coverage the interval actually has: exact methods give the attained level (≥ the
    // requested one when answered), approximate methods the nominal level they aim at.
    double confidence = k_nan;
    double p_value = k_nan; // two-sided; NaN for methods that only estimate
    // Empty when the method answered at the requested level. Otherwise why not ("n=3 < 6:
    // [min, max] covers only 75.0 %"); the interval then holds the best there is, if any, with
    // its own (lower) coverage in `confidence` — never a narrower interval passed off as 95 %.
    std::string insufficient;

    bool answered() const { return insufficient.empty(); }
};

// The two-sided decision at level alpha: an answered result whose p-value is at most alpha.
inline bool significant(const Result& result, double alpha) {
    return result.answered() && result.p_value <= alpha;
}

} // namespace bb::stats
