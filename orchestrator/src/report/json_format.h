#pragma once
// The report and the comparison as JSON, for scripts (jq, grep).
#include "report/sample_query.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bb {

// Groups with their statistics and every raw sample with its params, one sample per line.
std::string render_report_json(const SampleSet& set,
                               const std::vector<GroupStatistics>& statistics);

// `label_a`/`label_b` name the two sides ("run 3 (smoke-matrix, …)").
nlohmann::json comparison_json(const ComparisonSet& set, const std::string& label_a,
                               const std::string& label_b);

} // namespace bb
