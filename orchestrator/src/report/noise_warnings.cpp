#include "report/noise_warnings.h"

#include "report/statistics.h"
#include "util/units.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {
constexpr size_t k_fewest = 3; // below this a median absolute deviation says nothing
constexpr size_t k_named = 5;  // boots named per warning; the rest counted
} // namespace

std::vector<std::string> noise_warnings(const std::string& cell, const std::vector<double>& seconds,
                                        const std::vector<long long>& boot_ids) {
    std::vector<std::string> warnings;
    if (seconds.size() < k_fewest) {
        return warnings;
    }
    const Summary summary = summarize(seconds);
    const TimeUnit unit = unit_for_seconds(summary.median);
    const std::vector<double> scores = modified_z_scores(seconds);
    std::vector<std::string> named;
    size_t outliers = 0;
    for (size_t i = 0; i < seconds.size(); ++i) {
        if (std::fabs(scores[i]) > k_outlier_z && ++outliers <= k_named) {
            const std::string time = format_seconds(seconds[i], unit);
            named.push_back(i < boot_ids.size() ? fmt::format("boot {} {}", boot_ids[i], time)
                                                : time);
        }
    }
    if (outliers > 0) {
        warnings.push_back(fmt::format(
            "warning: {}: {} outlier{} (modified Z > {:g}): {}{} (median {})", cell, outliers,
            outliers == 1 ? "" : "s", k_outlier_z, fmt::join(named, ", "),
            outliers > named.size() ? fmt::format(" and {} more", outliers - named.size()) : "",
            format_seconds(summary.median, unit)));
    }
    const double cv = summary.mean > 0 ? summary.stddev / summary.mean : 0;
    if (cv > k_noisy_cv) {
        warnings.push_back(fmt::format("warning: {}: SD {:.1f} % of the mean (> {:g} %) over {} "
                                       "boots",
                                       cell, cv * 100, k_noisy_cv * 100, seconds.size()));
    }
    return warnings;
}

std::string noise_fix_hint() {
    return "  noisy boots widen every interval: `bootbench doctor` checks the host's noise "
           "(its timing noise section: governor, boost, SMT, THP); more rounds (`repeats:`) narrow "
           "the intervals";
}

} // namespace bb
