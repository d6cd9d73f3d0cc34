#include "report/html_report.h"

#include "report/render_support.h"
#include "report/report_table.h"
#include "report/svg_chart.h"
#include "report/view_renderer.h"
#include "util/markup_escape.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

constexpr const char* k_style = R"(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222;
       padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 2em; }
p.bb-subtitle { color: #555; margin-top: 0; }
p.bb-note { color: #444; font-size: 0.9em; }
table.bb-table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
table.bb-table th, table.bb-table td { border: 1px solid #ccc; padding: 0.25em 0.6em; }
table.bb-table th { background: #f0f0f0; }
table.bb-table td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.bb-table tr.bb-emphasized td { font-weight: bold; background: #f7f7ff; }
svg.bb-chart { display: block; margin: 1em 0; max-width: 100%; height: auto; }
svg .bb-axis { stroke: #555; stroke-width: 1; }
svg .bb-grid { stroke-width: 1; }
svg .bb-ci, svg .bb-ci-cap { stroke-width: 1.5; }
svg .bb-percentile { stroke-dasharray: 4 3; }
svg .bb-title, svg .bb-panel-title { font-weight: bold; }
)";

std::string paragraph(const std::string& text, const char* css_class = "bb-note") {
    return fmt::format("<p class=\"{}\">{}</p>\n", css_class, html_escape(text));
}

std::string heading(const std::string& text) {
    return fmt::format("<h2>{}</h2>\n", html_escape(text));
}

// Below 6 values there is no 95 % interval: the chart draws the point without whiskers rather
// than [min, max] passed off as one.
ChartPoint chart_point(const MedianEstimate& estimate, double scale) {
    const Interval ci = estimate.insufficient.empty()
                            ? Interval{estimate.ci.low * scale, estimate.ci.high * scale}
                            : Interval{};
    return {estimate.median * scale, ci, estimate.n, {}, {}};
}

// Up to six groups (one colour each), their boots' distributions overlaid: the point chart shows
// where each group sits, this one whether one group's boots are slower throughout or only in a
// tail. Drawn from the point chart's groups, labels and scaled samples.
constexpr size_t k_max_ecdf_groups = 6;

std::string ecdf_section(const std::string& metric, const ColumnUnit& unit,
                         const PointChart& groups) {
    EcdfChart chart;
    chart.title = fmt::format("{}: each group's boots as a distribution (ECDF)", metric);
    chart.x_title = unit.header(metric);
    const auto& points = groups.series.front().points;
    for (size_t g = 0; g < points.size(); ++g) {
        if (points[g]) {
            chart.series.push_back({groups.categories[g], points[g]->samples});
        }
    }
    if (chart.series.size() < 2) {
        return {};
    }
    if (chart.series.size() > k_max_ecdf_groups) {
        return paragraph(fmt::format("No distribution chart: {} groups, more than the {} it "
                                     "overlays (--only or --by narrows the report).",
                                     chart.series.size(), k_max_ecdf_groups));
    }
    return svg_ecdf_chart(chart);
}

} // namespace

std::string html_table(const Table& table) {
    std::string out = "<table class=\"bb-table\">\n<thead><tr>";
    for (const auto& header : table.headers) {
        out += fmt::format("<th>{}</th>", html_escape(header));
    }
    out += "</tr></thead>\n<tbody>\n";
    for (size_t r = 0; r < table.rows.size(); ++r) {
        const auto& row = table.rows[r];
        out += r < table.emphasized_rows ? "<tr class=\"bb-emphasized\">" : "<tr>";
        for (size_t i = 0; i < row.size(); ++i) {
            const bool right = i < table.right_aligned.size() && table.right_aligned[i];
            out += fmt::format("<td{}>{}</td>", right ? " class=\"num\"" : "", html_escape(row[i]));
        }
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table>\n";
}

std::string html_page(const HtmlContext& context, const std::string& body) {
    return fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<meta name=\"generator\" content=\"bootbench\">\n<title>{0}</title>\n"
                       "<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n{2}{3}{4}</body>\n"
                       "</html>\n",
                       html_escape(context.title), k_style,
                       context.subtitle.empty() ? "" : paragraph(context.subtitle, "bb-subtitle"),
                       context.banner.empty() ? "" : paragraph(context.banner, "bb-note"),
                       body + context.appendix);
}

std::string render_report_html(const SampleSet& set, const std::vector<GroupStatistics>& statistics,
                               const HtmlContext& context) {
    double smallest = INFINITY;
    for (const auto& stats : statistics) {
        if (stats.summary.n > 0) {
            smallest = std::min(smallest, std::fabs(stats.median.median));
        }
    }
    const ColumnUnit unit =
        column_unit(set.seconds, set.unit, std::isfinite(smallest) ? smallest : 0);
    PointChart chart;
    chart.title =
        fmt::format("{}: every used boot, the median and its 95 % interval per group", set.metric);
    chart.y_title = unit.header(set.metric);
    chart.connect = false; // groups have no order: a line between them would invent a trend
    PointSeries series;
    for (const auto& stats : statistics) {
        std::string label;
        for (const auto& value : stats.group->key) {
            label += (label.empty() ? "" : ";") + value.label();
        }
        chart.categories.push_back(label);
        std::optional<ChartPoint> point;
        if (stats.summary.n > 0) {
            point = chart_point(stats.median, unit.scale);
            for (const double value : stats.group->values) {
                point->samples.push_back(value * unit.scale);
            }
        }
        series.points.push_back(std::move(point));
    }
    const auto shared = remove_shared_parts(chart.categories);
    chart.x_title = shared.empty()
                        ? fmt::format("{}", fmt::join(set.axes, ", "))
                        : fmt::format("same in every group: {}", fmt::join(shared, "; "));
    chart.series.push_back(std::move(series));
    const std::string body = heading(chart.title) + svg_point_chart(chart) +
                             ecdf_section(set.metric, unit, chart) +
                             html_table(report_table(set, statistics)) +
                             paragraph("Used: outcome ok and a quiet host (foreign load "
                                       "within the quiet limit in force)"
                                       "; others are counted in “excluded”, never averaged "
                                       "(--include-failed, --include-loaded use them; the column "
                                       "“failed/loaded used” counts those in a row). Median "
                                       "intervals: order statistics, exact coverage in “CI "
                                       "covers”; none below 6 boots.");
    return html_page(context, body);
}

std::string render_param_table_html(const ParamTable& table, const HtmlContext& context) {
    double largest = 0;
    for (const auto& row : table.cells) {
        for (const auto& cell : row) {
            if (cell && cell->median.n > 0) {
                largest = std::max(largest, std::fabs(cell->median.median));
            }
        }
    }
    const ColumnUnit unit = column_unit(table.seconds, table.unit, largest);
    PointChart chart;
    chart.title = fmt::format("{} vs {}", table.metric, table.param);
    chart.x_title = table.param;
    chart.y_title = unit.header(table.metric) + ", median and 95 % interval";
    for (const auto& value : table.rows) {
        chart.categories.push_back(value.label());
    }
    for (size_t c = 0; c < table.columns.size(); ++c) {
        PointSeries series;
        series.name = table.column_axis
                          ? fmt::format("{}={}", *table.column_axis, table.columns[c].label())
                          : table.metric;
        for (size_t r = 0; r < table.rows.size(); ++r) {
            const auto& cell = table.cells[r][c];
            series.points.push_back(cell && cell->median.n > 0
                                        ? std::optional(chart_point(cell->median, unit.scale))
                                        : std::nullopt);
        }
        chart.series.push_back(std::move(series));
    }
    std::string body = heading(param_table_heading(table)) + svg_point_chart(chart) +
                       html_table(param_table_table(table));
    for (const std::string& note : param_table_notes(table)) {
        body += paragraph(note);
    }
    return html_page(context, body);
}

std::string render_histogram_html(const HistogramView& view, const HtmlContext& context) {
    const auto indices = shown_buckets(view);
    HistogramChart chart;
    chart.title = fmt::format("{}: buckets of {:g} µs", view.name, view.width);
    chart.x_title = view.name + " (µs)";
    chart.width = view.width;
    chart.first_edge = indices.empty() ? 0 : static_cast<double>(indices.front()) * view.width;
    for (const auto& group : view.groups) {
        HistogramPanel panel;
        panel.title = fmt::format("{} ({} boot{})", group_label(view.axes, group.key), group.used,
                                  group.used == 1 ? "" : "s");
        for (long long index : indices) {
            const auto found = group.merged.counts.find(index);
            panel.counts.push_back(found == group.merged.counts.end() ? 0 : found->second);
        }
        panel.total = group.merged.total();
        panel.markers = {{"p50", group.p50}, {"p90", group.p90}, {"p99", group.p99}};
        chart.panels.push_back(std::move(panel));
    }
    std::string body = heading(histogram_heading(view)) + svg_histogram_chart(chart) +
                       html_table(histogram_table(view));
    for (const auto& line : median_shift_lines(view)) {
        body += paragraph(line);
    }
    body += paragraph("Percentiles: the bucket holding rank p·N (N = all counts of the group) is "
                      "found by cumulative count, and the value interpolated linearly inside it, "
                      "values assumed spread uniformly over the bucket.");
    return html_page(context, body);
}

std::string render_per_item_html(const PerItemView& view, const HtmlContext& context) {
    std::string body;
    for (const auto& comparison : view.comparisons) {
        BarChart chart;
        chart.title = fmt::format("{}.*: {} vs {} (diff %, 95 % interval; geomean per boot)",
                                  view.prefix, comparison.other.label(), view.base.label());
        chart.x_title = fmt::format("{} / {} − 1 (%)", comparison.other.label(), view.base.label());
        const auto percent = [](double ratio) { return (ratio - 1) * 100; };
        const GeometricMean& g = comparison.geomean;
        chart.rows.push_back(
            {"geomean", percent(g.value), {percent(g.ci.low), percent(g.ci.high)}, true});
        for (const auto& item : comparison.items) {
            const Comparison& c = item.comparison;
            chart.rows.push_back({item.item,
                                  percent(c.ratio),
                                  {percent(c.ratio_ci.low), percent(c.ratio_ci.high)},
                                  false});
        }
        body += heading(per_item_heading(view, comparison)) + svg_bar_chart(chart) +
                html_table(per_item_table(view, comparison));
    }
    if (view.comparisons.empty()) {
        body += paragraph("Only one group: nothing to compare against the base.");
    }
    return html_page(context, body);
}

} // namespace bb
