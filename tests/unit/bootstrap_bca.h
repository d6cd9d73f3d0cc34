#pragma once
// A negative control, kept in the tests (no report uses it; docs/reporting.md "Methods"): the
// bias-corrected and accelerated (BCa) bootstrap interval of a statistic of one sample
// (Efron 1987). Its calibration test records where it holds its level (a median, n >= 20) and
// where it does not (a mean at n = 30), so the exact rank methods the reports use are seen to
// be the ones that hold. Only where it is sound: at least k_min_bootstrap_n values — below that a
// bootstrap distribution has too few distinct resamples (at n = 3 the percentile interval of
// a median is [min, max], 75 %) and the exact rank methods answer instead. Approximate: the
// result carries the nominal level, and its method names the resamples and the seed.
#include "stats/result.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

namespace bb::test {

constexpr int k_min_bootstrap_n = 20;

struct BootstrapOptions {
    int resamples = 2'000;
    std::uint64_t seed = 20240229;
};

using Statistic = std::function<double(std::span<const double>)>;

// `name` describes the statistic in the method string ("mean of log boot_seconds").
stats::Result bca_interval(std::span<const double> sample, const Statistic& statistic,
                           std::string_view name, double level = 0.95,
                           const BootstrapOptions& options = {});

} // namespace bb::test
