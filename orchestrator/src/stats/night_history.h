#pragma once
// A nightly history as nights of boots. The night is the unit: boots of one night share the
// host's state of that night (its load, its caches, its thermal state, the build it booted),
// so they are replicates within a night, not independent observations across nights. What a
// history says about a kernel over time comes from the nights; the boots only make each
// night's median precise.
#include "stats/result.h"

#include <vector>

namespace bb::stats {

// Each night's boots (times, in any unit), nights in the order they ran.
using NightBoots = std::vector<std::vector<double>>;

// Each night's median with its order-statistic interval (stats/median_interval.h) and its n
// (Result::n_a): one result per night, in order. A night of fewer than 6 boots carries
// [min, max] with the coverage it really has, marked insufficient.
std::vector<Result> night_medians(const NightBoots& nights, double level = 0.95);

// Between-night and within-night variance of log boot time: a one-way random-effects ANOVA by
// the method of moments, for unequal nights too (n₀ = (N − Σnᵢ²/N)/(k − 1)):
//   within  = MS_within,  between = max(0, (MS_between − MS_within) / n₀).
// A negative moment estimate of the between part means "no night effect seen", hence the
// clamp at 0. On the log scale both are squared relative spreads: √between = 0.01 is a night
// SD of about 1 %.
struct NightVariance {
    double between = k_nan;
    double within = k_nan;
    int nights = 0; // nights with at least one boot
    int boots = 0;
    std::string insufficient; // empty when both components were estimated

    // The share of the variance that is the night's: how far boots are from independent.
    double intraclass() const { return between / (between + within); }
};

NightVariance night_variance(const NightBoots& nights);

} // namespace bb::stats
