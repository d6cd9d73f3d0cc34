// The parameter table (view_renderer.h) in text, Markdown, CSV and JSON.
#include "report/csv_format.h"
#include "report/render_support.h"
#include "report/view_renderer.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {
// The interval a CSV row carries: none below 6 boots, where no interval reaches 95 %.
Interval interval_of(const MedianEstimate& median) {
    return median.insufficient.empty() ? median.ci : Interval{};
}
} // namespace

namespace {

std::string axis_label(const std::string& axis, const AxisValue& value) {
    return fmt::format("{}={}", axis, value.label());
}

double largest_param_median(const ParamTable& table) {
    double largest = 0;
    for (const auto& row : table.cells) {
        for (const auto& cell : row) {
            if (cell && std::isfinite(cell->median.median)) {
                largest = std::max(largest, std::fabs(cell->median.median));
            }
        }
    }
    return largest;
}

std::string_view order_text(MedianOrder order) {
    switch (order) {
    case MedianOrder::NonIncreasing:
        return "non-increasing";
    case MedianOrder::NonDecreasing:
        return "non-decreasing";
    case MedianOrder::Constant:
        return "constant";
    case MedianOrder::Mixed:
        break;
    }
    return "not monotone";
}

// "trend down phase, variant=table: J = 228 (falls: null mean 403.5) over 8 values (43 boots),
// p = 0.000149 (Jonckheere-Terpstra trend, exact); medians not monotone"
std::string trend_note(const ParamTable& table, size_t column) {
    const ColumnTrend& trend = table.trends[column];
    const std::string where =
        table.column_axis ? ", " + axis_label(*table.column_axis, table.columns[column]) : "";
    if (!trend.test.answered()) {
        return fmt::format("trend down {}{}: none ({})", table.param, where,
                           trend.test.insufficient);
    }
    const double j = trend.test.estimate;
    const std::string_view way = j < trend.null_mean   ? "falls"
                                 : j > trend.null_mean ? "rises"
                                                       : "flat";
    return fmt::format("trend down {}{}: J = {:g} ({}: null mean {:g}) over {} values ({} boots), "
                       "p = {} ({}); medians {}",
                       table.param, where, j, way, trend.null_mean, trend.rows, trend.test.n_a,
                       p_value_text(trend.test.p_value), trend.test.method,
                       order_text(trend.order));
}

nlohmann::json trends_json(const ParamTable& table) {
    nlohmann::json trends = nlohmann::json::array();
    for (size_t column = 0; column < table.trends.size(); ++column) {
        const ColumnTrend& trend = table.trends[column];
        trends.push_back({{"column", axis_json(table.columns[column])},
                          {"values", trend.rows},
                          {"boots", trend.test.n_a},
                          {"method", trend.test.method},
                          {"j", number_or_null(trend.test.estimate)},
                          {"j_null_mean", trend.null_mean},
                          {"p_value", number_or_null(trend.test.p_value)},
                          {"insufficient", trend.test.insufficient},
                          {"medians", order_text(trend.order)}});
    }
    return trends;
}

} // namespace

std::vector<std::string> param_table_notes(const ParamTable& table) {
    std::vector<std::string> notes;
    for (size_t column = 0; column < table.trends.size(); ++column) {
        notes.push_back(trend_note(table, column));
    }
    return notes;
}

Table param_table_table(const ParamTable& table) {
    const ColumnUnit unit = column_unit(table.seconds, table.unit, largest_param_median(table));
    Table out;
    out.headers.push_back(table.param);
    out.right_aligned.push_back(true);
    for (const auto& column : table.columns) {
        out.headers.push_back(table.column_axis
                                  ? unit.header(axis_label(*table.column_axis, column))
                                  : unit.header(table.metric));
        out.right_aligned.push_back(true);
    }
    for (size_t r = 0; r < table.rows.size(); ++r) {
        std::vector<std::string> row{table.rows[r].label()};
        for (const auto& cell : table.cells[r]) {
            if (!cell) {
                row.emplace_back("-");
                continue;
            }
            const MedianEstimate& m = cell->median;
            std::string text = m.n == 0 ? "-" : unit.number(m.median);
            if (m.n > 0 && m.insufficient.empty() && std::isfinite(m.ci.low)) {
                text += fmt::format(" [{}, {}] {}", unit.number(m.ci.low), unit.number(m.ci.high),
                                    coverage_text(m.coverage));
            }
            text += fmt::format(" (n={}{}", m.n,
                                contaminated_text(cell->used_failed, cell->used_loaded));
            text += cell->excluded > 0 ? fmt::format(", {} excluded", cell->excluded) : "";
            text += m.n > 0 && !m.insufficient.empty() ? ": no 95 % interval)" : ")";
            row.push_back(std::move(text));
        }
        out.rows.push_back(std::move(row));
    }
    return out;
}

std::string param_table_heading(const ParamTable& table) {
    return fmt::format("{} by {}{}: median [95 % order-statistic interval, coverage] (n used)",
                       table.metric, table.param,
                       table.column_axis ? " and " + *table.column_axis : "");
}

nlohmann::json param_table_json(const ParamTable& table) {
    nlohmann::json rows = nlohmann::json::array();
    for (size_t r = 0; r < table.rows.size(); ++r) {
        nlohmann::json cells = nlohmann::json::array();
        for (size_t c = 0; c < table.columns.size(); ++c) {
            const auto& cell = table.cells[r][c];
            nlohmann::json entry = {{"column", axis_json(table.columns[c])}};
            entry["n"] = cell ? cell->median.n : 0;
            entry["median"] = cell ? number_or_null(cell->median.median) : nullptr;
            entry["median_ci"] = interval_json(cell ? cell->median.ci : Interval{});
            entry["median_ci_coverage"] = cell ? number_or_null(cell->median.coverage) : nullptr;
            entry["excluded"] = cell ? cell->excluded : 0;
            entry["used_failed"] = cell ? cell->used_failed : 0;
            entry["used_loaded"] = cell ? cell->used_loaded : 0;
            cells.push_back(std::move(entry));
        }
        rows.push_back({{"value", axis_json(table.rows[r])}, {"cells", std::move(cells)}});
    }
    return {{"view", "param-table"},
            {"param", table.param},
            {"metric", table.metric},
            {"unit", table.unit},
            {"column_axis", table.column_axis ? nlohmann::json(*table.column_axis) : nullptr},
            {"rows", std::move(rows)},
            {"trends", trends_json(table)}};
}

std::string render_param_table(const ParamTable& table, ReportFormat format) {
    switch (format) {
    case ReportFormat::Csv: {
        // Long form, raw stored units: one line per (parameter value, column).
        std::string out = fmt::format("{},{}n,median,ci95_low,ci95_high,excluded,metric,unit\n",
                                      csv_field(table.param),
                                      table.column_axis ? csv_field(*table.column_axis) + "," : "");
        const auto number = [](double value) {
            return std::isfinite(value) ? fmt::format("{}", value) : std::string();
        };
        for (size_t r = 0; r < table.rows.size(); ++r) {
            for (size_t c = 0; c < table.columns.size(); ++c) {
                const auto& cell = table.cells[r][c];
                if (!cell) {
                    continue;
                }
                out += fmt::format(
                    "{},{}{},{},{},{},{},{},{}\n", csv_field(table.rows[r].label()),
                    table.column_axis ? csv_field(table.columns[c].label()) + "," : "",
                    cell->median.n, number(cell->median.median),
                    number(interval_of(cell->median).low), number(interval_of(cell->median).high),
                    cell->excluded, csv_field(table.metric), csv_field(table.unit));
            }
        }
        return out;
    }
    case ReportFormat::Json:
        return json_document(param_table_json(table));
    case ReportFormat::Text:
    case ReportFormat::Markdown:
    case ReportFormat::Html:
        break;
    }
    return render_text_or_markdown(param_table_heading(table), param_table_table(table),
                                   param_table_notes(table), format);
}

} // namespace bb
