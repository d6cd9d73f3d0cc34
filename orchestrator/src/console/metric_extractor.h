#pragma once
#include "console/console_event.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Turns kernel output into metrics where the guest cannot print BOOTBENCH-METRIC itself, e.g.
// rcuscale's "srcu-scale: ... batches: 18125". The regex (RE2 syntax, console/metric_pattern.h)
// must have exactly one capture group, the number; `scale` multiplies it. A histogram extractor
// collects every match of the log as one distribution: buckets of width `bucket` plus exact
// <name>_n/_p50/_p90/_p99/_max metrics.
struct LineExtractor {
    std::string name;
    std::string pattern;
    std::string unit;
    bool histogram = false;
    double scale = 1;
    double bucket = 0;
};

// Extractors see at most this many bytes of a line: 8 times the kernel's longest printk record,
// so no kernel line is cut, while a guest that prints megabytes without a newline costs bounded
// time per pattern.
inline constexpr size_t k_max_extracted_line_bytes = 8192;

struct ExtractedMetrics {
    std::vector<MetricSample> metrics;
    std::vector<HistogramBucket> histograms;
    // Lines longer than k_max_extracted_line_bytes, and the bytes past the limit that no
    // extractor saw: a metric printed there is missing, and the runner can say why.
    size_t lines_cut = 0;
    size_t bytes_cut = 0;
};

// Value extractors: every match on every line of `log` becomes one metric sample, in order.
// Throws Error when a pattern is not valid RE2 (the experiment parser refuses those earlier).
ExtractedMetrics extract_metrics(std::string_view log,
                                 const std::vector<LineExtractor>& extractors);

// Nearest-rank percentile (q in [0, 1]) of unsorted values; nullopt when there are none.
std::optional<double> nearest_rank_percentile(std::vector<double> values, double q);

} // namespace bb
