#include "report/param_table.h"

#include "stats/jonckheere.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace bb {

namespace {

std::optional<double> numeric(const AxisValue& value) {
    switch (value.kind) {
    case AxisValue::Kind::Integer:
        return static_cast<double>(value.integer);
    case AxisValue::Kind::Real:
        return value.real;
    case AxisValue::Kind::Text: {
        double parsed = 0;
        const char* end = value.text.data() + value.text.size();
        const auto [ptr, error] = std::from_chars(value.text.data(), end, parsed);
        if (error == std::errc() && ptr == end && !value.text.empty()) {
            return parsed;
        }
        return std::nullopt;
    }
    case AxisValue::Kind::Null:
    case AxisValue::Kind::Blob: // json_extract never yields one
        return std::nullopt;
    }
    return std::nullopt;
}

size_t index_of(std::vector<AxisValue>& values, const AxisValue& value) {
    const auto found = std::find(values.begin(), values.end(), value);
    if (found != values.end()) {
        return static_cast<size_t>(found - values.begin());
    }
    values.push_back(value);
    return values.size() - 1;
}

MedianOrder median_order(const std::vector<double>& medians) {
    bool rises = false;
    bool falls = false;
    for (size_t i = 1; i < medians.size(); ++i) {
        rises = rises || medians[i] > medians[i - 1];
        falls = falls || medians[i] < medians[i - 1];
    }
    if (rises && falls) {
        return MedianOrder::Mixed;
    }
    return rises ? MedianOrder::NonDecreasing
                 : (falls ? MedianOrder::NonIncreasing : MedianOrder::Constant);
}

// Rows of text values ("off") have no place on the parameter's scale: left out of the trend.
ColumnTrend column_trend(const ParamTable& table, const std::vector<std::vector<double>>& values,
                         size_t column) {
    std::vector<std::vector<double>> groups;
    std::vector<double> medians;
    for (size_t row = 0; row < table.rows.size(); ++row) {
        const auto& cell = table.cells[row][column];
        if (!numeric(table.rows[row]) || !cell || cell->median.n == 0) {
            continue;
        }
        groups.push_back(values[row]);
        medians.push_back(cell->median.median);
    }
    ColumnTrend trend;
    trend.rows = static_cast<int>(groups.size());
    trend.null_mean = stats::jonckheere_null_mean(groups);
    trend.test = stats::jonckheere_terpstra(groups);
    trend.order = median_order(medians);
    return trend;
}

} // namespace

bool param_value_less(const AxisValue& a, const AxisValue& b) {
    const auto x = numeric(a);
    const auto y = numeric(b);
    if (x && y && *x != *y) {
        return *x < *y;
    }
    if (x.has_value() != y.has_value()) {
        return x.has_value();
    }
    return axis_value_less(a, b); // equal numbers or both text: the report's total order
}

ParamTable build_param_table(const SampleSet& set, const EstimateOptions& options) {
    if (set.axes.empty() || set.axes.size() > 2) {
        throw std::invalid_argument("build_param_table: group by the parameter and at most one "
                                    "more axis");
    }
    ParamTable table;
    table.param = set.axes[0];
    table.metric = set.metric;
    table.unit = set.unit;
    table.seconds = set.seconds;
    if (set.axes.size() == 2) {
        table.column_axis = set.axes[1];
    }
    for (const SampleGroup& group : set.groups) {
        index_of(table.rows, group.key[0]);
        index_of(table.columns, table.column_axis ? group.key[1] : AxisValue{});
    }
    std::sort(table.rows.begin(), table.rows.end(), param_value_less);
    std::sort(table.columns.begin(), table.columns.end(), axis_value_less);
    table.cells.assign(table.rows.size(),
                       std::vector<std::optional<ParamCell>>(table.columns.size()));
    // [column][row]: the used values, for the trend
    std::vector<std::vector<std::vector<double>>> values(
        table.columns.size(), std::vector<std::vector<double>>(table.rows.size()));
    for (const SampleGroup& group : set.groups) {
        const size_t row = index_of(table.rows, group.key[0]);
        const size_t column =
            index_of(table.columns, table.column_axis ? group.key[1] : AxisValue{});
        values[column][row] = group.values;
        ParamCell cell;
        cell.median = median_estimate(group.values, options);
        cell.excluded = group.failed + group.loaded + group.no_value;
        cell.used_failed = group.used_failed;
        cell.used_loaded = group.used_loaded;
        table.cells[row][column] = cell;
    }
    for (size_t column = 0; column < table.columns.size(); ++column) {
        table.trends.push_back(column_trend(table, values[column], column));
    }
    return table;
}

} // namespace bb
