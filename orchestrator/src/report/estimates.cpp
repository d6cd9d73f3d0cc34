#include "report/estimates.h"

#include "stats/median_interval.h"
#include "stats/sorted.h"
#include "stats/two_sample.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

double sample_median(std::span<const double> values) {
    return values.empty() ? std::numeric_limits<double>::quiet_NaN()
                          : stats::sorted_median_of(values);
}

} // namespace

MedianEstimate median_estimate(std::span<const double> sample, const EstimateOptions& options) {
    const stats::Result result = stats::median_interval(sample, 1 - options.alpha);
    MedianEstimate estimate;
    estimate.n = result.n_a;
    estimate.median = result.estimate;
    estimate.ci = result.interval;
    estimate.coverage = result.confidence;
    estimate.insufficient = result.insufficient;
    return estimate;
}

Comparison::Verdict decide_verdict(const Comparison& c, double p, double alpha, double threshold) {
    using Verdict = Comparison::Verdict;
    if (!c.insufficient.empty()) {
        return Verdict::Insufficient;
    }
    if (!(p <= alpha)) {
        return Verdict::NoChange;
    }
    // A threshold only ever makes a significant change insignificant, never the reverse.
    const double change = c.relative_change;
    const bool large_enough_up = threshold <= 0 || change > threshold;
    const bool large_enough_down = threshold <= 0 || -change > threshold;
    if (c.difference > 0 && large_enough_up) {
        return Verdict::Slower;
    }
    if (c.difference < 0 && large_enough_down) {
        return Verdict::Faster;
    }
    return Verdict::NoChange;
}

double relative_change(double before, double after) {
    return before == 0 ? std::numeric_limits<double>::quiet_NaN() : (after - before) / before;
}

Comparison compare_medians(std::span<const double> a, std::span<const double> b,
                           const EstimateOptions& options, double threshold) {
    Comparison c;
    c.n_a = static_cast<int>(a.size());
    c.n_b = static_cast<int>(b.size());
    c.median_a = sample_median(a);
    c.median_b = sample_median(b);
    const double level = 1 - options.alpha;
    const stats::Result shift = stats::hodges_lehmann_shift(a, b, level);
    c.difference = shift.estimate;
    c.difference_ci = shift.interval;
    c.p_value = shift.p_value;
    c.coverage = shift.confidence;
    c.method = shift.method;
    c.insufficient = shift.insufficient;
    // The ratio on the log scale when every value is positive (times are); otherwise from the
    // medians, without an interval.
    const stats::Result ratio = stats::hodges_lehmann_ratio(a, b, level);
    if (!std::isnan(ratio.estimate)) {
        c.ratio = ratio.estimate;
        c.ratio_ci = ratio.interval;
        c.relative_change = c.ratio - 1;
    } else {
        c.relative_change = relative_change(c.median_a, c.median_b);
        c.ratio = std::isfinite(c.relative_change) ? c.relative_change + 1 : c.relative_change;
    }
    c.p_adjusted = c.p_value;
    c.verdict = decide_verdict(c, c.p_adjusted, options.alpha, threshold);
    return c;
}

std::string_view to_string(Comparison::Verdict verdict) {
    switch (verdict) {
    case Comparison::Verdict::Faster:
        return "faster";
    case Comparison::Verdict::Slower:
        return "slower";
    case Comparison::Verdict::NoChange:
        return "no difference shown"; // the verdict's wording: one wording everywhere
    case Comparison::Verdict::Insufficient:
        return "insufficient data";
    }
    return "?";
}

std::string coverage_text(double coverage) {
    return std::isfinite(coverage) ? fmt::format("{:.1f} %", 100 * coverage) : "-";
}

} // namespace bb
