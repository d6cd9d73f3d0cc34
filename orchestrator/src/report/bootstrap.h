#pragma once
// Bootstrap confidence intervals for medians and comparisons of medians. Knows no output format.
//
// Every interval is a percentile bootstrap (95 % by default, 10000 resamples) drawn from a
// std::mt19937_64 seeded from the options, so the same data and seed give the same interval.
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

namespace bb {

struct BootstrapOptions {
    int resamples = 10'000;
    std::uint64_t seed = 20240229;
    double confidence = 0.95;
};

// A closed interval; both ends are NaN when there was nothing to estimate from.
struct Interval {
    double low = std::numeric_limits<double>::quiet_NaN();
    double high = std::numeric_limits<double>::quiet_NaN();

    bool contains(double value) const { return low <= value && value <= high; }
    bool excludes_zero() const { return low > 0 || high < 0; }
};

// The median of `sample` and its bootstrap interval.
struct MedianEstimate {
    int n = 0;
    double median = std::numeric_limits<double>::quiet_NaN();
    Interval ci;
};

MedianEstimate bootstrap_median(std::span<const double> sample,
                                const BootstrapOptions& options = {});

// Two independent groups, A (before) and B (after). Times: lower is better.
struct Comparison {
    enum class Verdict { Faster, Slower, NoChange, Insufficient };

    int n_a = 0;
    int n_b = 0;
    double median_a = std::numeric_limits<double>::quiet_NaN();
    double median_b = std::numeric_limits<double>::quiet_NaN();
    double difference = std::numeric_limits<double>::quiet_NaN(); // median B − median A
    Interval difference_ci;
    double ratio = std::numeric_limits<double>::quiet_NaN(); // median B / median A
    Interval ratio_ci;
    double relative_change = std::numeric_limits<double>::quiet_NaN(); // ratio − 1
    Verdict verdict = Verdict::Insufficient;
};

// Fewer samples than this in either group: Insufficient (a CI from 2 values means nothing).
constexpr int k_min_samples_to_compare = 3;

// Verdict: Slower (Faster) when the CI of B − A lies above (below) zero and, when `threshold`
// (a fraction: 0.02 = 2 %) is positive, the relative change also exceeds it in that direction;
// NoChange otherwise. Both groups are resampled independently in each bootstrap round; the
// difference and the ratio come from the same rounds.
Comparison compare_medians(std::span<const double> a, std::span<const double> b,
                           const BootstrapOptions& options = {}, double threshold = 0);

// (after − before) / before; NaN when `before` is 0.
double relative_change(double before, double after);

// Geometric mean of per-item ratios (B/A of each cell) with a bootstrap CI that resamples the
// items. Ratios that are not finite and positive cannot enter a geometric mean: they are
// skipped and counted.
struct GeometricMean {
    int n = 0;
    int skipped = 0;
    double value = std::numeric_limits<double>::quiet_NaN();
    Interval ci;
};

GeometricMean geometric_mean_ratio(std::span<const double> ratios,
                                   const BootstrapOptions& options = {});

std::string_view to_string(Comparison::Verdict verdict);

} // namespace bb
