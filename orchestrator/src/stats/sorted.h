#pragma once
// Small helpers on sorted copies that every rank method needs.
#include <algorithm>
#include <limits>
#include <span>
#include <vector>

namespace bb::stats {

inline std::vector<double> sorted_copy(std::span<const double> values) {
    std::vector<double> copy(values.begin(), values.end());
    std::sort(copy.begin(), copy.end());
    return copy;
}

// Median of an already sorted, non-empty range.
inline double sorted_median(std::span<const double> sorted) {
    const size_t n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// The median of any range (copied and sorted); NaN when it is empty, so that "no value" can
// never print as a value. The one median of a list of values (reports included).
inline double sorted_median_of(std::span<const double> values) {
    if (values.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const auto sorted = sorted_copy(values);
    return sorted_median(sorted);
}

// The k-th smallest (0-based) of `values`, which it reorders.
inline double kth_smallest(std::vector<double>& values, size_t k) {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
}

// Median of `values` (non-empty), which it reorders.
inline double median_in_place(std::vector<double>& values) {
    const size_t n = values.size();
    const double upper = kth_smallest(values, n / 2);
    if (n % 2 == 1) {
        return upper;
    }
    // After nth_element everything before n/2 is ≤ upper: the lower middle is their maximum.
    const double lower =
        *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n / 2));
    return (lower + upper) / 2;
}

} // namespace bb::stats
