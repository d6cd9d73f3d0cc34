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

double pooled_sd_log(std::span<const std::vector<double>> groups) {
    double squares = 0;
    std::size_t freedom = 0;
    for (const auto& group : groups) {
        const auto logs = logs_of(group);
        if (!logs || logs->size() < 2) {
            continue;
        }
        double mean = 0;
        for (double value : *logs) {
            mean += value / static_cast<double>(logs->size());
        }
        for (double value : *logs) {
            squares += (value - mean) * (value - mean);
        }
        freedom += logs->size() - 1;
    }
    return freedom == 0 ? k_nan : std::sqrt(squares / static_cast<double>(freedom));
}

namespace {

// Common random numbers: every n draws the same sequence, so the curves are monotone in
// practice. Calls `judge(a, b)` (log values, B shifted by `shift`) once per data set and
// returns the share for which it said yes.
template <typename Judge>
double simulated_share(int n, double sigma_log, double shift, const SampleSizeOptions& options,
                       Judge judge) {
    std::mt19937_64 rng(options.seed);
    std::normal_distribution<double> noise(0, sigma_log);
    std::vector<double> a(static_cast<size_t>(n));
    std::vector<double> b(a.size());
    int yes = 0;
    for (int run = 0; run < options.simulations; ++run) {
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = noise(rng);
            b[i] = noise(rng) + shift;
        }
        yes += judge(a, b) ? 1 : 0;
    }
    return static_cast<double>(yes) / options.simulations;
}

std::string method_text(const SampleSizeOptions& options) {
    return fmt::format("simulation of the exact {} on log-normal boots ({} data sets per n, seed "
                       "{})",
                       options.paired ? "signed-rank test on pairs of independent boots"
                                      : "Mann-Whitney test",
                       options.simulations, options.seed);
}

// The smallest n in [2, max_boots] whose share(n) reaches options.power, by bisection (the
// share grows with n); `goal` names what falls short.
template <typename Share>
SampleSizePlan smallest_n(const SampleSizeOptions& options, const std::string& goal, Share share) {
    SampleSizePlan plan;
    plan.method = method_text(options);
    int low = 1; // known too small (one boot per group tests nothing)
    int high = options.max_boots;
    double share_high = share(high);
    if (share_high < options.power) {
        plan.achieved_power = share_high;
        plan.insufficient = fmt::format("{} boots per cell reach only {:.0f} % {}",
                                        options.max_boots, 100 * share_high, goal);
        return plan;
    }
    while (high - low > 1) {
        const int middle = (low + high) / 2;
        const double share_middle = share(middle);
        if (share_middle >= options.power) {
            high = middle;
            share_high = share_middle;
        } else {
            low = middle;
        }
    }
    plan.boots_per_cell = high;
    plan.achieved_power = share_high;
    return plan;
}

} // namespace

double simulated_power(int n, double sigma_log, double ratio, const SampleSizeOptions& options) {
    return simulated_share(n, sigma_log, std::log(ratio), options,
                           [&](const auto& a, const auto& b) {
                               const double p = options.paired ? signed_rank_shift(a, b).p_value
                                                               : mann_whitney_test(a, b).p_value;
                               return p <= options.alpha;
                           });
}

double simulated_precision(int n, double sigma_log, double half_width,
                           const SampleSizeOptions& options) {
    const double level = 1 - options.alpha;
    return simulated_share(n, sigma_log, 0, options, [&](const auto& a, const auto& b) {
        const Result shift =
            options.paired ? signed_rank_shift(a, b, level) : hodges_lehmann_shift(a, b, level);
        const double width = std::exp(shift.interval.high) - std::exp(shift.interval.low);
        return shift.answered() && width / 2 <= half_width;
    });
}

SampleSizePlan plan_boots_per_cell(double sigma_log, double ratio,
                                   const SampleSizeOptions& options) {
    if (!(sigma_log > 0) || !(ratio > 0) || ratio == 1) {
        SampleSizePlan plan;
        plan.method = method_text(options);
        plan.insufficient = "needs a positive spread and a ratio other than 1";
        return plan;
    }
    return smallest_n(options, "power",
                      [&](int n) { return simulated_power(n, sigma_log, ratio, options); });
}

SampleSizePlan plan_boots_for_half_width(double sigma_log, double half_width,
                                         const SampleSizeOptions& options) {
    if (!(sigma_log > 0) || !(half_width > 0)) {
        SampleSizePlan plan;
        plan.method = method_text(options);
        plan.insufficient = "needs a positive spread and a positive half-width";
        return plan;
    }
    return smallest_n(options, fmt::format("assurance of ±{:.1f} %", 100 * half_width), [&](int n) {
        return simulated_precision(n, sigma_log, half_width, options);
    });
}

} // namespace bb::stats
