#include "stats/sample_size.h"

#include "stats/log_scale.h"
#include "stats/signed_rank.h"
#include "stats/sorted.h"
#include "stats/two_sample.h"

#include <cmath>
#include <fmt/format.h>
#include <random>
#include <vector>

namespace bb::stats {

double mad_sigma_log(std::span<const double> pilot) {
    auto logs = logs_of(pilot);
    if (!logs || logs->size() < 2) {
        return k_nan;
    }
    const double centre = median_in_place(*logs);
    for (double& value : *logs) {
        value = std::abs(value - centre);
    }
    return 1.4826 * median_in_place(*logs);
}

double simulated_power(int n, double sigma_log, double ratio, const SampleSizeOptions& options) {
    std::mt19937_64 rng(options.seed);
    std::normal_distribution<double> noise(0, sigma_log);
    const double shift = std::log(ratio);
    std::vector<double> a(static_cast<size_t>(n));
    std::vector<double> b(a.size());
    int rejections = 0;
    for (int run = 0; run < options.simulations; ++run) {
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = noise(rng);
            b[i] = noise(rng) + shift;
        }
        const double p =
            options.paired ? signed_rank_shift(a, b).p_value : mann_whitney_test(a, b).p_value;
        rejections += p <= options.alpha ? 1 : 0;
    }
    return static_cast<double>(rejections) / options.simulations;
}

SampleSizePlan plan_boots_per_cell(double sigma_log, double ratio,
                                   const SampleSizeOptions& options) {
    SampleSizePlan plan;
    plan.method = fmt::format("simulation of the exact {} on log-normal boots ({} data sets per "
                              "n, seed {})",
                              options.paired ? "signed-rank test on pairs of independent boots"
                                             : "Mann-Whitney test",
                              options.simulations, options.seed);
    if (!(sigma_log > 0) || !(ratio > 0) || ratio == 1) {
        plan.insufficient = "needs a positive spread and a ratio other than 1";
        return plan;
    }
    // Power grows with n: bisect for the smallest n that reaches the target.
    int low = 1; // known too small (one boot per group tests nothing)
    int high = options.max_boots;
    double power_high = simulated_power(high, sigma_log, ratio, options);
    if (power_high < options.power) {
        plan.achieved_power = power_high;
        plan.insufficient = fmt::format("{} boots per cell reach only {:.0f} % power",
                                        options.max_boots, 100 * power_high);
        return plan;
    }
    while (high - low > 1) {
        const int middle = (low + high) / 2;
        const double power = simulated_power(middle, sigma_log, ratio, options);
        if (power >= options.power) {
            high = middle;
            power_high = power;
        } else {
            low = middle;
        }
    }
    plan.boots_per_cell = high;
    plan.achieved_power = power_high;
    return plan;
}

} // namespace bb::stats
