#pragma once
// Boots per cell for a two-group comparison (Hodges–Lehmann / Mann–Whitney at α, two-sided)
// to detect a given ratio with a given power, or to estimate the ratio to a given precision
// (the interval's half-width, with a given assurance). By simulation, so the answer is the power of
// the exact test we actually run, discreteness included (3 vs 3 can never reach 0.05): log-normal
// boots (normal on the log scale with the pilot's σ), B shifted by log(ratio), a fixed seed and
// the same random numbers at every n (so the power curve is monotone in practice).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bb::stats {

// A robust σ of log values from a pilot: 1.4826 × MAD of the logs (σ for normal logs; one
// slow boot does not inflate it). NaN with fewer than 2 values or a value that is not positive.
double mad_sigma_log(std::span<const double> pilot);

// The pooled standard deviation of log values over groups, each around its own mean (degrees of
// freedom Σ (n − 1)): a floor for a pilot's σ, because the MAD of 3 values can be 0 although
// they differ. Groups with a value that is not positive are skipped; NaN without a degree of
// freedom.
double pooled_sd_log(std::span<const std::vector<double>> groups);

struct SampleSizeOptions {
    // Paired by round: the exact signed-rank test on n pairs instead of Mann–Whitney on n vs n.
    // The pairs' differences are simulated from independent boots (σ√2 on the log scale): the
    // plan takes no credit for what pairing may cancel (slow drift), but it does pay for the
    // signed-rank test's coarser steps (fewer than 6 pairs can never reach p < 0.05).
    bool paired = false;
    double alpha = 0.05;
    double power = 0.8;
    int simulations = 2'000;
    int max_boots = 200;
    std::uint64_t seed = 20240229;
};

struct SampleSizePlan {
    int boots_per_cell = 0; // 0 when even max_boots falls short
    // The simulated probability of the goal at boots_per_cell (or at max_boots): the power, or
    // for a half-width plan the share of runs whose interval is that narrow (the assurance).
    double achieved_power = 0;
    std::string method;       // how it was found, with simulations and seed
    std::string insufficient; // why there is no answer
};

SampleSizePlan plan_boots_per_cell(double sigma_log, double ratio,
                                   const SampleSizeOptions& options = {});

// The simulated power of the exact test (Mann–Whitney, or signed-rank when paired) at n boots
// per group.
double simulated_power(int n, double sigma_log, double ratio, const SampleSizeOptions& options);

// Boots per cell so that the interval of B / A the verdict prints (level 1 − options.alpha:
// exact Hodges–Lehmann, or signed-rank when paired) has a half-width of at most `half_width`
// ((high − low) / 2 on the ratio scale; 0.02 is ±2 %) in at least options.power of the runs.
// Estimation, not detection: the width does not depend on the effect, which is simulated as 0.
SampleSizePlan plan_boots_for_half_width(double sigma_log, double half_width,
                                         const SampleSizeOptions& options = {});

// The share of simulated runs of n boots per group whose interval is at most that wide; runs
// too small for an interval at the level count as too wide.
double simulated_precision(int n, double sigma_log, double half_width,
                           const SampleSizeOptions& options);

} // namespace bb::stats
