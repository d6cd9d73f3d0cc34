#pragma once
#include "console/console_event.h"

#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Turns kernel output into metrics where the guest cannot print BOOTBENCH-METRIC itself, e.g.
// rcuscale's "srcu-scale: ... batches: 18125". The regex must have exactly one capture group,
// the number; `scale` multiplies it. A histogram extractor collects every match of the log as
// one distribution: buckets of width `bucket` plus exact <name>_n/_p50/_p90/_p99/_max metrics.
struct LineExtractor {
    std::string name;
    std::string pattern;
    std::string unit;
    bool histogram = false;
    double scale = 1;
    double bucket = 0;
};

struct ExtractedMetrics {
    std::vector<MetricSample> metrics;
    std::vector<HistogramBucket> histograms;
};

// Value extractors: every match on every line of `log` becomes one metric sample, in order.
ExtractedMetrics extract_metrics(std::string_view log,
                                 const std::vector<LineExtractor>& extractors);

// Nearest-rank percentile (q in [0, 1]) of unsorted values; nullopt when there are none.
std::optional<double> nearest_rank_percentile(std::vector<double> values, double q);

} // namespace bb
