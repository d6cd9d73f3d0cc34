#pragma once
// The estimates a report prints, computed by the exact methods of stats/ (docs/reporting.md,
// "Methods"): a group's median with its order-statistic interval, and a comparison of two
// groups by the Hodges–Lehmann shift with its exact Mann–Whitney interval and p-value, the
// ratio on the log scale. Knows no output format.
#include "stats/result.h"

#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace bb {

using stats::Interval;

// One α for every interval (level 1 − α) and every verdict of a report.
struct EstimateOptions {
    double alpha = 0.05;
};

struct MedianEstimate {
    int n = 0;
    double median = std::numeric_limits<double>::quiet_NaN();
    Interval ci;
    double coverage = std::numeric_limits<double>::quiet_NaN(); // what `ci` really covers
    std::string insufficient; // "n=3: [min, max] covers only 75.0 %…"; empty when answered
};

MedianEstimate median_estimate(std::span<const double> sample, const EstimateOptions& options = {});

// Two independent groups, A (before) and B (after). Times: lower is better.
struct Comparison {
    enum class Verdict { Faster, Slower, NoChange, Insufficient };

    int n_a = 0;
    int n_b = 0;
    double median_a = std::numeric_limits<double>::quiet_NaN(); // shown; not what is tested
    double median_b = std::numeric_limits<double>::quiet_NaN();
    double difference = std::numeric_limits<double>::quiet_NaN(); // Hodges–Lehmann B − A
    Interval difference_ci;                                       // exact Mann–Whitney
    double ratio = std::numeric_limits<double>::quiet_NaN();      // HL on logs: B / A
    Interval ratio_ci;
    double relative_change = std::numeric_limits<double>::quiet_NaN(); // ratio − 1
    double p_value = std::numeric_limits<double>::quiet_NaN();         // Mann–Whitney, 2-sided
    // Holm-adjusted over the family the verdict is part of (compare: every group in both
    // runs); the p-value itself for a comparison made alone. The verdict reads this one.
    double p_adjusted = std::numeric_limits<double>::quiet_NaN();
    double coverage = std::numeric_limits<double>::quiet_NaN(); // of the intervals
    std::string method;
    std::string insufficient; // why there is no verdict (empty group, 3 vs 3, …)
    Verdict verdict = Verdict::Insufficient;
};

// Verdict: Slower (Faster) when the Mann–Whitney p is at most α and the shift is positive
// (negative) and, when `threshold` (a fraction: 0.02 = 2 %) is positive, the relative change
// also exceeds it in that direction; NoChange otherwise; Insufficient when no interval reaches
// 1 − α (fewer than 4 boots in a group at α = 0.05). The name stays for its callers: the
// medians are shown, the shift of the whole distributions is what is estimated and tested.
Comparison compare_medians(std::span<const double> a, std::span<const double> b,
                           const EstimateOptions& options = {}, double threshold = 0);

// The verdict of `c` from the p-value given (raw or Holm-adjusted) at α.
Comparison::Verdict decide_verdict(const Comparison& c, double p, double alpha, double threshold);

// (after − before) / before; NaN when `before` is 0.
double relative_change(double before, double after);

std::string_view to_string(Comparison::Verdict verdict);

// "95.8 %": how a coverage prints everywhere.
std::string coverage_text(double coverage);

} // namespace bb
