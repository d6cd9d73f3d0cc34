#pragma once
// Warnings that a cell's boots were noisy, as pyperf warns of an unstable benchmark: outliers
// (modified Z-score above 3.5, the boots named) and a standard deviation above 10 % of the mean.
// Both widen every interval and both usually mean a busy or unsteady host, so each warning
// comes with the fix. `run`'s summary (and so `nightly`'s report) and `report`'s grouped view
// print them (issue 49, item 7).
#include <string>
#include <vector>

namespace bb {

inline constexpr double k_outlier_z = 3.5; // Iglewicz & Hoaglin's bound (statistics.h)
inline constexpr double k_noisy_cv = 0.10; // pyperf's: SD above 10 % of the mean

// "warning: CELL: 1 outlier (modified Z > 3.5): boot 17 9.81 s (median 7.20 s)" and
// "warning: CELL: SD 14.2 % of the mean (> 10 %) over 8 boots"; none for fewer than 3 values.
// `boot_ids` parallel to `seconds` (boot times in seconds), or empty: outliers by time only.
std::vector<std::string> noise_warnings(const std::string& cell, const std::vector<double>& seconds,
                                        const std::vector<long long>& boot_ids);

// The fix, printed once under any warnings: what to check and what to change.
std::string noise_fix_hint();

} // namespace bb
