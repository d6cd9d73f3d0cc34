#pragma once
// SVG charts drawn by hand for the HTML report: no script, no external resource, every label
// escaped. Elements carry classes (bb-point, bb-ci, bb-bar, bb-percentile, …) that the page's
// CSS styles and the browser test counts. Takes numbers already in the unit to print.
#include "report/estimates.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bb {

// Axis ticks at 1, 2 or 5 × 10^k covering [low, high], about `count` of them.
std::vector<double> nice_ticks(double low, double high, int count = 5);

// Medians with CI bars over categories (parameter values or groups), one series per variant.
struct ChartPoint {
    double value = 0;
    Interval ci; // drawn when both ends are finite
    int n = 0;
    std::vector<double> samples; // every used boot's value, drawn as dots behind the median
    std::string flag; // non-empty: the point is ringed (bb-flag) and this ends its tooltip
};
struct PointSeries {
    std::string name;
    std::vector<std::optional<ChartPoint>> points; // one per category; none: no data there
};
struct PointChart {
    std::string title;
    std::string x_title;
    std::string y_title;
    std::vector<std::string> categories;
    std::vector<PointSeries> series;
    // Join each series' points by a line: for the ordered values of a parameter, never for
    // groups that have no order.
    bool connect = true;
};
std::string svg_point_chart(const PointChart& chart);

// Horizontal bars around zero with CI whiskers (per-item diff %); emphasized rows (the
// geometric mean) are drawn in their own class.
struct BarRow {
    std::string label;
    double value = 0;
    Interval ci;
    bool emphasized = false;
};
struct BarChart {
    std::string title;
    std::string x_title;
    std::vector<BarRow> rows{};
};
std::string svg_bar_chart(const BarChart& chart);

// Empirical distribution functions overlaid in one panel, one step line per group: two groups'
// shapes compare directly whatever their sizes (each curve climbs 1/n at every boot).
struct EcdfSeries {
    std::string name;
    std::vector<double> values; // every used boot's value, any order; non-finite ones are skipped
};
struct EcdfChart {
    std::string title;
    std::string x_title;
    std::vector<EcdfSeries> series;
};
std::string svg_ecdf_chart(const EcdfChart& chart);

// Histograms side by side, one panel per group, sharing both axes; vertical markers for the
// percentiles. Normalised (the default), a bar is its bucket's share of the group's counts, so
// groups of unequal counts (more boots, longer runs) compare; the tooltip keeps the count.
struct HistogramMarker {
    std::string label; // "p50"
    double at = 0;     // x value
};
struct HistogramPanel {
    std::string title;
    std::vector<double> counts; // one per bucket, from first_edge on
    std::vector<HistogramMarker> markers;
    double total = 0; // the group's counts in all buckets, shown or not (normalised: 0 = no bars)
};
struct HistogramChart {
    std::string title;
    std::string x_title;
    double first_edge = 0;
    double width = 1;
    bool normalised = true; // bars as % of their panel's total, else raw counts
    std::vector<HistogramPanel> panels;
};
std::string svg_histogram_chart(const HistogramChart& chart);

// Horizontal stacked bars, one per group: each segment a part of the whole (a boot phase's
// median), in the same order and colour in every bar, and the whole itself (the endpoint's
// median) as a dashed outline behind them. Parts are medians of their own: they need not add up
// to the whole, and a gap or overhang between the last segment and the outline shows it.
struct StackedBar {
    std::string label;
    std::vector<double> segments; // one per StackedBarChart::segment_names; non-finite: none
    double total = std::numeric_limits<double>::quiet_NaN(); // the outline; non-finite: none
};
struct StackedBarChart {
    std::string title;
    std::string x_title;
    std::vector<std::string> segment_names;
    std::string total_name; // the outline's legend entry
    std::vector<StackedBar> bars;
};
std::string svg_stacked_bar_chart(const StackedBarChart& chart);

// A timeline, one row per item: a bar from its start for its length on one shared axis (a
// bootgraph: initcalls on the kernel's clock), in the rows' order.
struct TimelineRow {
    std::string label;
    double start = 0;
    double length = 0;
    std::string tooltip; // the bar's <title>; empty: the label
};
struct TimelineChart {
    std::string title;
    std::string x_title;
    std::vector<TimelineRow> rows{};
};
std::string svg_timeline_chart(const TimelineChart& chart);

} // namespace bb
