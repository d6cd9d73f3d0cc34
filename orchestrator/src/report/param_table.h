#pragma once
// The parameter table (like seed 000's SRCU_MAX_NODELAY_PHASE | Boot time (s)): one row per
// value of a parameter, sorted numerically, with the median of a metric, its order-statistic 95 %
// interval and n; optionally one column per value of a second axis (--by variant). Computing only.
#include "report/estimates.h"
#include "report/sample_query.h"

#include <optional>
#include <string>
#include <vector>

namespace bb {

struct ParamCell {
    MedianEstimate median; // n = used samples; NaN median when none
    int excluded = 0;      // failed, loaded or without a value
    int used_failed = 0;   // failed boots among the used ones (--include-failed)
    int used_loaded = 0;   // loaded boots among the used ones (--include-loaded)
};

struct ParamTable {
    std::string param;
    std::string metric;
    std::string unit;
    bool seconds = false;
    std::optional<std::string> column_axis; // e.g. "variant"; none: a single column
    std::vector<AxisValue> rows;            // parameter values, numbers numerically first
    std::vector<AxisValue> columns;         // values of column_axis (one empty value if none)
    std::vector<std::vector<std::optional<ParamCell>>> cells; // [row][column]; none: no boots
};

// `set` must be grouped by {param} or {param, column_axis}. A text value that reads as a
// number ("250") sorts with the numbers, so stored strings still sort like the seed's table.
ParamTable build_param_table(const SampleSet& set, const EstimateOptions& options = {});

// Numeric-aware order of parameter values: numbers (and numeric text) by value, then text.
bool param_value_less(const AxisValue& a, const AxisValue& b);

} // namespace bb
