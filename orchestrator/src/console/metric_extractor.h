#pragma once
#include "console/console_event.h"

#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Turns kernel output into metrics where the guest cannot print BOOTBENCH-METRIC itself, e.g.
// rcuscale's "srcu-scale: ... batches: 18125". The regex must have exactly one capture group,
// the number.
struct LineExtractor {
    std::string name;
    std::string pattern;
    std::string unit;
};

// Every match on every line of `log` becomes one metric sample, in order.
std::vector<MetricSample> extract_metrics(std::string_view log,
                                          const std::vector<LineExtractor>& extractors);

} // namespace bb
