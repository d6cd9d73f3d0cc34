#include "report/view_renderer.h"

#include "report/render_support.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

std::string count_text(double count) {
    // Counts are whole unless a stored bucket was split across a boundary.
    return count == std::round(count) ? fmt::format("{:.0f}", count) : fmt::format("{:.1f}", count);
}

std::string percentile_text(double value) {
    return std::isfinite(value) ? ValueFormat::plain(value) : "-";
}

std::string axis_label(const std::string& axis, const AxisValue& value) {
    return fmt::format("{}={}", axis, value.display());
}

std::string group_name(const std::vector<std::string>& axes, const std::vector<AxisValue>& key) {
    return group_label(axes, key);
}

// Text and Markdown differ only in the table syntax and a blank line after the heading.
std::string text_or_markdown(const std::string& heading, const Table& table,
                             const std::vector<std::string>& notes, ReportFormat format) {
    const bool markdown = format == ReportFormat::Markdown;
    std::string out = heading + (markdown ? "\n\n" : "\n");
    out += markdown ? render_markdown(table) : render_aligned(table);
    if (!notes.empty()) {
        out += markdown ? "\n" : "";
        for (const auto& note : notes) {
            out += note + "\n";
        }
    }
    return out;
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

std::string percent_interval_text(const Interval& ratio) {
    if (!std::isfinite(ratio.low) || !std::isfinite(ratio.high)) {
        return "";
    }
    return fmt::format("[{}, {}]", percent_change_text(ratio.low), percent_change_text(ratio.high));
}

double largest_item_median(const PerItemView& view) {
    double largest = 0;
    for (const auto& comparison : view.comparisons) {
        for (const auto& item : comparison.items) {
            for (double value : {item.comparison.median_a, item.comparison.median_b}) {
                if (std::isfinite(value)) {
                    largest = std::max(largest, std::fabs(value));
                }
            }
        }
    }
    return largest;
}

} // namespace

std::string percent_change_text(double ratio) {
    return std::isfinite(ratio) ? fmt::format("{:+.1f}%", (ratio - 1) * 100) : "-";
}

// ---- parameter table ----

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
        std::vector<std::string> row{table.rows[r].display()};
        for (const auto& cell : table.cells[r]) {
            if (!cell) {
                row.emplace_back("-");
                continue;
            }
            const MedianEstimate& m = cell->median;
            std::string text = m.n == 0 ? "-" : unit.number(m.median);
            if (m.n > 0 && std::isfinite(m.ci.low)) {
                text += fmt::format(" [{}, {}]", unit.number(m.ci.low), unit.number(m.ci.high));
            }
            text += cell->excluded > 0 ? fmt::format(" (n={}, {} excluded)", m.n, cell->excluded)
                                       : fmt::format(" (n={})", m.n);
            row.push_back(std::move(text));
        }
        out.rows.push_back(std::move(row));
    }
    return out;
}

std::string param_table_heading(const ParamTable& table) {
    return fmt::format("{} by {}{}: median [95% CI] (n used)", table.metric, table.param,
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
            entry["median_ci95"] = interval_json(cell ? cell->median.ci : Interval{});
            entry["excluded"] = cell ? cell->excluded : 0;
            cells.push_back(std::move(entry));
        }
        rows.push_back({{"value", axis_json(table.rows[r])}, {"cells", std::move(cells)}});
    }
    return {{"view", "param-table"},
            {"param", table.param},
            {"metric", table.metric},
            {"unit", table.unit},
            {"column_axis", table.column_axis ? nlohmann::json(*table.column_axis) : nullptr},
            {"rows", std::move(rows)}};
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
                    "{},{}{},{},{},{},{},{},{}\n", csv_field(table.rows[r].display()),
                    table.column_axis ? csv_field(table.columns[c].display()) + "," : "",
                    cell->median.n, number(cell->median.median), number(cell->median.ci.low),
                    number(cell->median.ci.high), cell->excluded, csv_field(table.metric),
                    csv_field(table.unit));
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
    return text_or_markdown(param_table_heading(table), param_table_table(table), {}, format);
}

// ---- histograms ----

Table histogram_table(const HistogramView& view) {
    Table table;
    table.headers.emplace_back("bucket");
    table.right_aligned.push_back(false);
    for (const auto& group : view.groups) {
        table.headers.push_back(group_name(view.axes, group.key));
        table.right_aligned.push_back(true);
    }
    for (long long index : shown_buckets(view)) {
        std::vector<std::string> row{bucket_label(view, index)};
        for (const auto& group : view.groups) {
            const auto found = group.merged.counts.find(index);
            row.push_back(count_text(found == group.merged.counts.end() ? 0 : found->second));
        }
        table.rows.push_back(std::move(row));
    }
    const auto add_row = [&](const std::string& label, auto value) {
        std::vector<std::string> row{label};
        for (const auto& group : view.groups) {
            row.push_back(value(group));
        }
        table.rows.push_back(std::move(row));
    };
    add_row("p50", [](const HistogramGroup& g) { return percentile_text(g.p50); });
    add_row("p90", [](const HistogramGroup& g) { return percentile_text(g.p90); });
    add_row("p99", [](const HistogramGroup& g) { return percentile_text(g.p99); });
    add_row("samples", [](const HistogramGroup& g) { return count_text(g.merged.total()); });
    add_row("boots", [](const HistogramGroup& g) { return std::to_string(g.used); });
    return table;
}

std::string histogram_heading(const HistogramView& view) {
    return fmt::format("histogram {}: buckets of {:g} µs summed over the used boots of each group "
                       "(by {}); p50/p90/p99 interpolated in the bucket",
                       view.name, view.width, fmt::join(view.axes, ", "));
}

std::vector<std::string> median_shift_lines(const HistogramView& view) {
    std::vector<std::string> lines;
    if (view.groups.empty()) {
        return lines;
    }
    const std::string first = group_name(view.axes, view.groups.front().key);
    for (const auto& shift : view.shifts) {
        const Comparison& c = shift.comparison;
        const std::string other = group_name(view.axes, view.groups[shift.group].key);
        if (c.n_a == 0 || c.n_b == 0) {
            lines.push_back(
                fmt::format("p50 shift, {} − {}: no per-boot p50 on one side", other, first));
            continue;
        }
        const std::string interval =
            std::isfinite(c.difference_ci.low)
                ? fmt::format(" [{:+g}, {:+g}]", c.difference_ci.low, c.difference_ci.high)
                : "";
        lines.push_back(fmt::format("p50 shift, {} − {}: {:+g} µs{} (95% CI of the difference of "
                                    "the medians of per-boot p50s, n {} → {}; {})",
                                    other, first, c.difference, interval, c.n_a, c.n_b,
                                    verdict_word(c.verdict, false)));
    }
    return lines;
}

nlohmann::json histogram_view_json(const HistogramView& view) {
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& group : view.groups) {
        nlohmann::json buckets = nlohmann::json::array();
        for (const auto& [index, count] : group.merged.counts) {
            buckets.push_back({group.merged.lower_edge(index), count});
        }
        groups.push_back({{"key", key_json(view.axes, group.key)},
                          {"label", group_name(view.axes, group.key)},
                          {"boots_used", group.used},
                          {"boots_without_histogram", group.without},
                          {"boots_excluded", group.excluded},
                          {"samples", group.merged.total()},
                          {"p50", number_or_null(group.p50)},
                          {"p90", number_or_null(group.p90)},
                          {"p99", number_or_null(group.p99)},
                          {"boot_p50s", group.boot_p50s},
                          {"buckets", std::move(buckets)}});
    }
    nlohmann::json shifts = nlohmann::json::array();
    for (const auto& shift : view.shifts) {
        const Comparison& c = shift.comparison;
        shifts.push_back({{"a", group_name(view.axes, view.groups.front().key)},
                          {"b", group_name(view.axes, view.groups[shift.group].key)},
                          {"n_a", c.n_a},
                          {"n_b", c.n_b},
                          {"median_p50_a", number_or_null(c.median_a)},
                          {"median_p50_b", number_or_null(c.median_b)},
                          {"difference", number_or_null(c.difference)},
                          {"difference_ci95", interval_json(c.difference_ci)},
                          {"verdict", std::string(to_string(c.verdict))}});
    }
    return {{"view", "histogram"},
            {"name", view.name},
            {"by", view.axes},
            {"bucket_width", view.width},
            {"buckets_are", "[lower_edge, lower_edge + bucket_width), [lower_edge, count] pairs"},
            {"split_buckets", view.split_buckets},
            {"groups", std::move(groups)},
            {"median_shifts", std::move(shifts)}};
}

std::string render_histogram_view(const HistogramView& view, ReportFormat format) {
    switch (format) {
    case ReportFormat::Csv: {
        std::string out;
        for (const auto& axis : view.axes) {
            out += csv_field(axis) + ",";
        }
        out += "lo,hi,count\n";
        const auto indices = shown_buckets(view);
        for (const auto& group : view.groups) {
            std::string prefix;
            for (const auto& value : group.key) {
                prefix +=
                    csv_field(value.kind == AxisValue::Kind::Missing ? "" : value.display()) + ",";
            }
            for (long long index : indices) {
                const auto found = group.merged.counts.find(index);
                out += fmt::format("{}{},{},{}\n", prefix, group.merged.lower_edge(index),
                                   group.merged.lower_edge(index + 1),
                                   found == group.merged.counts.end() ? 0.0 : found->second);
            }
        }
        return out;
    }
    case ReportFormat::Json:
        return json_document(histogram_view_json(view));
    case ReportFormat::Text:
    case ReportFormat::Markdown:
    case ReportFormat::Html:
        break;
    }
    std::vector<std::string> notes = median_shift_lines(view);
    if (view.split_buckets > 0) {
        notes.push_back(fmt::format("{} stored bucket{} straddled a {:g} boundary and {} split "
                                    "in proportion to the overlap",
                                    view.split_buckets, view.split_buckets == 1 ? "" : "s",
                                    view.width, view.split_buckets == 1 ? "was" : "were"));
    }
    return text_or_markdown(histogram_heading(view), histogram_table(view), notes, format);
}

// ---- per-item table ----

Table per_item_table(const PerItemView& view, const PerItemComparison& comparison) {
    const ColumnUnit unit = column_unit(view.seconds, view.unit, largest_item_median(view));
    Table table;
    table.headers = {"item",
                     unit.header(view.base.display()),
                     unit.header(comparison.other.display()),
                     "diff",
                     "diff % [95% CI]",
                     "n"};
    table.right_aligned = {false, true, true, true, true, true};
    table.emphasized_rows = 1;
    const GeometricMean& g = comparison.geomean;
    table.rows.push_back({"* geomean", unit.number(comparison.base_geomean),
                          unit.number(comparison.other_geomean),
                          unit.signed_number(comparison.other_geomean - comparison.base_geomean),
                          with_interval(percent_change_text(g.value), percent_interval_text(g.ci)),
                          fmt::format("{} item{}", g.n, g.n == 1 ? "" : "s")});
    for (const auto& item : comparison.items) {
        const Comparison& c = item.comparison;
        table.rows.push_back(
            {item.item, unit.number(c.median_a), unit.number(c.median_b),
             unit.signed_number(c.difference),
             with_interval(percent_change_text(c.ratio), percent_interval_text(c.ratio_ci)),
             fmt::format("{}/{}", c.n_a, c.n_b)});
    }
    return table;
}

std::string per_item_heading(const PerItemView& view, const PerItemComparison& comparison) {
    return fmt::format("{}.* by {}: {} (base) vs {}; medians, diff = {} − {}, diff % = {} / {} − 1 "
                       "(negative: lower)",
                       view.prefix, view.axis, view.base.display(), comparison.other.display(),
                       comparison.other.display(), view.base.display(), comparison.other.display(),
                       view.base.display());
}

nlohmann::json per_item_view_json(const PerItemView& view) {
    nlohmann::json comparisons = nlohmann::json::array();
    for (const auto& comparison : view.comparisons) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto& item : comparison.items) {
            const Comparison& c = item.comparison;
            items.push_back({{"item", item.item},
                             {"n_base", c.n_a},
                             {"n_other", c.n_b},
                             {"median_base", number_or_null(c.median_a)},
                             {"median_other", number_or_null(c.median_b)},
                             {"diff", number_or_null(c.difference)},
                             {"diff_ci95", interval_json(c.difference_ci)},
                             {"ratio", number_or_null(c.ratio)},
                             {"ratio_ci95", interval_json(c.ratio_ci)}});
        }
        const GeometricMean& g = comparison.geomean;
        comparisons.push_back({{"other", axis_json(comparison.other)},
                               {"geomean",
                                {{"items", g.n},
                                 {"skipped", static_cast<int>(comparison.items.size()) - g.n},
                                 {"base", number_or_null(comparison.base_geomean)},
                                 {"other", number_or_null(comparison.other_geomean)},
                                 {"ratio", number_or_null(g.value)},
                                 {"ratio_ci95", interval_json(g.ci)}}},
                               {"items", std::move(items)}});
    }
    return {{"view", "per-item"}, {"prefix", view.prefix},
            {"by", view.axis},    {"base", axis_json(view.base)},
            {"unit", view.unit},  {"comparisons", std::move(comparisons)}};
}

std::string render_per_item_view(const PerItemView& view, ReportFormat format) {
    switch (format) {
    case ReportFormat::Csv: {
        std::string out = fmt::format("row,item,axis,base,other,n_base,n_other,median_base,"
                                      "median_other,diff,ratio,ratio_ci95_low,ratio_ci95_high,"
                                      "unit\n");
        const auto number = [](double value) {
            return std::isfinite(value) ? fmt::format("{}", value) : std::string();
        };
        for (const auto& comparison : view.comparisons) {
            const std::string sides = fmt::format("{},{}", csv_field(view.base.display()),
                                                  csv_field(comparison.other.display()));
            const GeometricMean& g = comparison.geomean;
            out += fmt::format(
                "geomean,,{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(view.axis), sides, g.n,
                g.n, number(comparison.base_geomean), number(comparison.other_geomean),
                number(comparison.other_geomean - comparison.base_geomean), number(g.value),
                number(g.ci.low), number(g.ci.high), csv_field(view.unit));
            for (const auto& item : comparison.items) {
                const Comparison& c = item.comparison;
                out += fmt::format("item,{},{},{},{},{},{},{},{},{},{},{},{}\n",
                                   csv_field(item.item), csv_field(view.axis), sides, c.n_a, c.n_b,
                                   number(c.median_a), number(c.median_b), number(c.difference),
                                   number(c.ratio), number(c.ratio_ci.low), number(c.ratio_ci.high),
                                   csv_field(view.unit));
            }
        }
        return out;
    }
    case ReportFormat::Json:
        return json_document(per_item_view_json(view));
    case ReportFormat::Text:
    case ReportFormat::Markdown:
    case ReportFormat::Html:
        break;
    }
    std::string out;
    for (const auto& comparison : view.comparisons) {
        out += (out.empty() ? "" : "\n") + text_or_markdown(per_item_heading(view, comparison),
                                                            per_item_table(view, comparison), {},
                                                            format);
    }
    return out;
}

} // namespace bb
