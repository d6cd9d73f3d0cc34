#pragma once
// Is tonight's night unlike the nights before it? The nightly gate with the night as the unit
// (docs/nightly.md, "The nightly verdict"): boots of one night share that night's host state,
// so the spread that matters for a new night is the spread of earlier nights' medians, not of
// boots. On the log scale, with x₁…x_k the k earlier nights' log medians and y tonight's:
//   t = (y − x̄) / (s·√(1 + 1/k)),   Student's t with k − 1 degrees of freedom,
// the prediction interval of a new night from the earlier ones (exact when night medians are
// normal and alike; the [stats] calibration measures the false-alarm rate with heavy tails).
// A boot-level comparison of tonight with one earlier night flags most A/A nights (measured
// here: 7 of 9); this flags α of them.
#include "stats/result.h"

#include <vector>

namespace bb::stats {

// Fewer earlier nights: no gate (with 4, t's 97.5 % point is 2.78 and one odd night moves s a
// lot; fewer leaves the interval too wide to flag anything).
constexpr int k_min_gate_nights = 5;

struct NightGate {
    int nights = 0;             // earlier nights
    double ratio = k_nan;       // tonight's median / the earlier nights' geometric mean
    Interval expected;          // where a like night's ratio falls, at the requested level
    double p_value = k_nan;     // two-sided
    double night_sd = k_nan;    // the earlier nights' SD of log median (≈ relative SD)
    std::string insufficient;   // empty when tested

    bool answered() const { return insufficient.empty(); }
};

NightGate night_gate(const std::vector<double>& earlier_medians, double tonight_median,
                     double level = 0.95);

} // namespace bb::stats
