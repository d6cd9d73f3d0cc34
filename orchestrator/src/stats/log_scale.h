#pragma once
// Ratios are shifts on the log scale: compare log values, then exponentiate the estimate and
// the interval ends (the exponential is monotone, so the coverage carries over unchanged).
#include "stats/result.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bb::stats {

// The natural logs of `values`; nullopt when one is not finite and positive.
std::optional<std::vector<double>> logs_of(std::span<const double> values);

// A shift result on log values as a ratio: estimate and interval exponentiated.
Result to_ratio(Result shift);

// `shift(log a, log b)` as a ratio b / a; insufficient (named `method`) when a value is not
// positive.
template <class Shift>
Result ratio_of(std::span<const double> a, std::span<const double> b, std::string_view method,
                Shift shift) {
    const auto log_a = logs_of(a);
    const auto log_b = logs_of(b);
    if (log_a && log_b) {
        return to_ratio(shift(std::span<const double>(*log_a), std::span<const double>(*log_b)));
    }
    Result result;
    result.method = std::string(method) + " on the log scale";
    result.n_a = static_cast<int>(a.size());
    result.n_b = static_cast<int>(b.size());
    result.insufficient = "a value is not positive: no ratio";
    return result;
}

} // namespace bb::stats
