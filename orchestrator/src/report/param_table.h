#pragma once
// The parameter table (like seed 000's SRCU_MAX_NODELAY_PHASE | Boot time (s)): one row per
// value of a parameter, sorted numerically, with the median of a metric, its order-statistic 95 %
// interval and n; optionally one column per value of a second axis (--by variant). Under each
// column, the trend down its numeric rows (Jonckheere–Terpstra, boots as the unit), which is
// the question such a table asks ("does the metric fall as the parameter grows?"). Computing
// only.
#include "report/estimates.h"
#include "report/sample_query.h"
#include "stats/result.h"

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

// How the medians move down the rows, for the trend's words.
enum class MedianOrder { NonIncreasing, NonDecreasing, Constant, Mixed };

// The trend down one column: over its rows with a numeric value and at least one used boot,
// in the table's order (ascending parameter).
struct ColumnTrend {
    int rows = 0;       // groups the test ran over
    stats::Result test; // J as the estimate; unanswered with fewer than two groups
    // J's mean without a trend, Σ_{g<h} n_g·n_h / 2: below it the values fall down the rows.
    double null_mean = 0;
    MedianOrder order = MedianOrder::Mixed;
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
    std::vector<ColumnTrend> trends;                          // [column]
};

// `set` must be grouped by {param} or {param, column_axis}. A text value that reads as a
// number ("250") sorts with the numbers, so stored strings still sort like the seed's table.
ParamTable build_param_table(const SampleSet& set, const EstimateOptions& options = {});

// Numeric-aware order of parameter values: numbers (and numeric text) by value, then text.
bool param_value_less(const AxisValue& a, const AxisValue& b);

} // namespace bb
