#pragma once
// Ratios are shifts on the log scale: compare log values, then exponentiate the estimate and
// the interval ends (the exponential is monotone, so the coverage carries over unchanged).
#include "stats/result.h"

#include <optional>
#include <span>
#include <vector>

namespace bb::stats {

// The natural logs of `values`; nullopt when one is not finite and positive.
std::optional<std::vector<double>> logs_of(std::span<const double> values);

// A shift result on log values as a ratio: estimate and interval exponentiated.
Result to_ratio(Result shift);

} // namespace bb::stats
