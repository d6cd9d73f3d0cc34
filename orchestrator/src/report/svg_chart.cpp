#include "report/svg_chart.h"

#include "stats/sorted.h"
#include "util/markup_escape.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <iterator>

namespace bb {

namespace {

// Colour-blind-safe (Okabe–Ito); series cycle through them.
constexpr std::array<const char*, 6> k_palette{"#0072b2", "#d55e00", "#009e73",
                                               "#cc79a7", "#e69f00", "#56b4e9"};

// Category labels longer than this are cut (with "…"); the point's tooltip keeps the whole.
// Group labels arrive without the parts every group shares (remove_shared_parts), so a cut
// label is rare and never hides the part that tells two groups apart.
constexpr size_t k_max_label = 60;

const char* colour(size_t index) {
    return k_palette[index % k_palette.size()];
}

std::string number(double value) {
    return fmt::format("{:.1f}", value);
}

std::string tick_label(double value) {
    if (value != 0 && (std::fabs(value) >= 1e6 || std::fabs(value) < 1e-3)) {
        return fmt::format("{:.3g}", value);
    }
    return fmt::format("{:g}", value);
}

// Maps a value range onto a pixel range (y grows downwards in SVG: pass top > bottom).
struct Scale {
    double low;
    double high;
    double from;
    double to;
    double operator()(double value) const {
        return high == low ? (from + to) / 2 : from + (value - low) / (high - low) * (to - from);
    }
};

std::string svg_open(double width, double height, const std::string& title) {
    return fmt::format("<svg class=\"bb-chart\" xmlns=\"http://www.w3.org/2000/svg\" "
                       "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
                       "font-family=\"sans-serif\" font-size=\"11\">\n<title>{2}</title>\n"
                       "<text class=\"bb-title\" x=\"{3}\" y=\"18\" text-anchor=\"middle\" "
                       "font-size=\"13\">{2}</text>\n",
                       number(width), number(height), html_escape(title), number(width / 2));
}

std::string text(double x, double y, const std::string& content, const char* anchor,
                 const char* css_class, const std::string& extra = "") {
    return fmt::format("<text class=\"{}\" x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}>{}</text>\n",
                       css_class, number(x), number(y), anchor, extra, html_escape(content));
}

std::string line(double x1, double y1, double x2, double y2, const char* css_class,
                 const std::string& stroke = "#555") {
    return fmt::format("<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" "
                       "stroke=\"{}\"/>\n",
                       css_class, number(x1), number(y1), number(x2), number(y2), stroke);
}

// Horizontal grid lines with labels on the left, and the y title rotated beside them.
std::string y_axis(const Scale& y, const std::vector<double>& ticks, double left, double right,
                   const std::string& title) {
    std::string out;
    for (double tick : ticks) {
        out += line(left, y(tick), right, y(tick), "bb-grid", "#ddd");
        out += text(left - 6, y(tick) + 4, tick_label(tick), "end", "bb-tick");
    }
    out += line(left, y.from, left, y.to, "bb-axis");
    const double middle = (y.from + y.to) / 2;
    out += text(14, middle, title, "middle", "bb-axis-title",
                fmt::format(" transform=\"rotate(-90 14 {})\"", number(middle)));
    return out;
}

// [low, high] of every finite number given, widened so that nothing sits on the frame.
std::pair<double, double> value_range(const std::vector<double>& values, bool include_zero) {
    double low = include_zero ? 0 : INFINITY;
    double high = include_zero ? 0 : -INFINITY;
    for (double value : values) {
        if (std::isfinite(value)) {
            low = std::min(low, value);
            high = std::max(high, value);
        }
    }
    if (!std::isfinite(low)) {
        return {0, 1};
    }
    if (low == high) {
        const double pad = low == 0 ? 1 : std::fabs(low) * 0.1;
        return {low - pad, high + pad};
    }
    const double pad = (high - low) * 0.05;
    return {include_zero && low >= 0 ? low : low - pad, high + pad};
}

} // namespace

std::vector<double> nice_ticks(double low, double high, int count) {
    if (!std::isfinite(low) || !std::isfinite(high) || count < 1) {
        return {};
    }
    if (high < low) {
        std::swap(low, high);
    }
    if (high == low) {
        return {low};
    }
    const double rough = (high - low) / count;
    const double magnitude = std::pow(10, std::floor(std::log10(rough)));
    double step = magnitude * 10;
    for (double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (magnitude * factor >= rough) {
            step = magnitude * factor;
            break;
        }
    }
    // index × step rather than a running sum: no rounding drift across the ticks.
    std::vector<double> ticks;
    for (auto index = static_cast<long long>(std::ceil(low / step));; ++index) {
        const double tick = static_cast<double>(index) * step;
        if (tick > high + step * 1e-9) {
            break;
        }
        ticks.push_back(tick == 0 ? 0 : tick); // no "-0"
    }
    return ticks;
}

namespace {

// Where a point chart's parts go: one slot per category along x, room below for the labels.
struct PointLayout {
    double width = 0;
    double left = 70;
    double right = 0;
    double slot = 0;
    bool slanted = false;
    double height = 0;
    double top = 0;
    double bottom = 0;

    double slot_centre(size_t category) const {
        return left + slot * (static_cast<double>(category) + 0.5);
    }
};

PointLayout point_layout(const PointChart& chart) {
    PointLayout layout;
    // Wide enough for the title (13 px bold sans: under 8 px a character) and the x axis's
    // title (11 px: 6.5) too.
    layout.width = std::max({480.0, 120.0 + 70.0 * static_cast<double>(chart.categories.size()),
                             40.0 + 8.0 * static_cast<double>(chart.title.size()),
                             110.0 + 6.5 * static_cast<double>(chart.x_title.size())});
    layout.right = layout.width - 20;
    layout.slot = (layout.right - layout.left) /
                  static_cast<double>(std::max<size_t>(1, chart.categories.size()));
    // Long category labels (cell keys) are shortened and slanted instead of overlapping.
    size_t longest = 0;
    for (const auto& category : chart.categories) {
        longest = std::max(longest, std::min(category.size(), k_max_label));
    }
    layout.slanted = static_cast<double>(longest) * 6.5 > layout.slot;
    if (layout.slanted) {
        // A label slanted at 35° reaches cos 35° of its length left of its slot's centre: the
        // first one must not leave the chart. The chart widens by what the margin grows.
        const double reach = 6.5 * 0.82 * static_cast<double>(longest) - layout.slot / 2 + 10;
        if (reach > layout.left) {
            layout.width += reach - layout.left;
            layout.right += reach - layout.left;
            layout.left = reach;
        }
    }
    const double label_room = layout.slanted ? 6.5 * 0.6 * static_cast<double>(longest) + 20 : 20;
    layout.height = 300 + label_room;
    layout.top = 34 + 16 * static_cast<double>(chart.series.size() > 1);
    layout.bottom = layout.height - 36 - label_room;
    return layout;
}

std::string shortened_label(const std::string& label) {
    if (label.size() <= k_max_label) {
        return label;
    }
    size_t cut = k_max_label - 1;
    while (cut > 0 && (static_cast<unsigned char>(label[cut]) & 0xC0) == 0x80) {
        --cut; // never inside a UTF-8 sequence
    }
    return label.substr(0, cut) + "…";
}

std::string category_labels(const PointChart& chart, const PointLayout& layout) {
    std::string out;
    for (size_t c = 0; c < chart.categories.size(); ++c) {
        const double x = layout.slot_centre(c);
        const std::string shown = shortened_label(chart.categories[c]);
        const double y = layout.bottom + (layout.slanted ? 14 : 16);
        out += layout.slanted
                   ? text(x, y, shown, "end", "bb-tick",
                          fmt::format(" transform=\"rotate(-35 {} {})\"", number(x), number(y)))
                   : text(x, y, shown, "middle", "bb-tick");
    }
    return out;
}

// Every boot of a point as a dot, spread across the slot by the golden-ratio sequence (the same
// picture on every render; no two neighbours share an x) so that equal values stay visible.
std::string sample_dots(const ChartPoint& point, size_t s, double x, const Scale& y) {
    std::string dots;
    for (size_t i = 0; i < point.samples.size(); ++i) {
        if (!std::isfinite(point.samples[i])) {
            continue;
        }
        const double spread = std::fmod(static_cast<double>(i) * 0.6180339887, 1.0) - 0.5;
        dots += fmt::format("<circle class=\"bb-sample\" cx=\"{}\" cy=\"{}\" r=\"2.5\" "
                            "fill=\"{}\" fill-opacity=\"0.45\"/>\n",
                            number(x + spread * 22), number(y(point.samples[i])), colour(s));
    }
    return dots;
}

// One point with its interval bars (when it has one) and a tooltip.
std::string point_mark(const PointChart& chart, size_t s, size_t c, double x, const Scale& y) {
    const PointSeries& series = chart.series[s];
    const auto& point = *series.points[c];
    std::string marks = sample_dots(point, s, x, y);
    std::string tip = fmt::format("{}{}: {:g}", series.name.empty() ? "" : series.name + ", ",
                                  chart.categories[c], point.value);
    if (std::isfinite(point.ci.low) && std::isfinite(point.ci.high)) {
        marks += line(x, y(point.ci.low), x, y(point.ci.high), "bb-ci", colour(s));
        marks += line(x - 4, y(point.ci.low), x + 4, y(point.ci.low), "bb-ci-cap", colour(s));
        marks += line(x - 4, y(point.ci.high), x + 4, y(point.ci.high), "bb-ci-cap", colour(s));
        tip += fmt::format(" [{:g}, {:g}]", point.ci.low, point.ci.high);
    }
    tip += fmt::format(", n={}", point.n);
    if (!point.flag.empty()) {
        tip += ", " + point.flag;
        marks += fmt::format("<circle class=\"bb-flag\" cx=\"{}\" cy=\"{}\" r=\"9\" "
                             "fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
                             number(x), number(y(point.value)));
    }
    return marks + fmt::format("<circle class=\"bb-point\" cx=\"{}\" cy=\"{}\" r=\"4\" "
                               "fill=\"{}\"><title>{}</title></circle>\n",
                               number(x), number(y(point.value)), colour(s), html_escape(tip));
}

// A legend entry: a square of the series' colour and its name.
std::string legend_entry(size_t s, double x, double y, const std::string& name) {
    return fmt::format("<rect class=\"bb-legend\" x=\"{}\" y=\"{}\" width=\"10\" "
                       "height=\"10\" fill=\"{}\"/>\n",
                       number(x), number(y), colour(s)) +
           text(x + 14, y + 9, name, "start", "bb-legend-text");
}

// Series `s`: its points joined by a faint line, then its legend entry when there are several.
std::string point_series(const PointChart& chart, size_t s, const PointLayout& layout,
                         const Scale& y) {
    const size_t count = chart.series.size();
    const PointSeries& series = chart.series[s];
    // Series side by side inside each slot, so their CI bars never hide each other.
    const double offset = count < 2
                              ? 0
                              : (static_cast<double>(s) - static_cast<double>(count - 1) / 2) *
                                    std::min(14.0, layout.slot * 0.6 / static_cast<double>(count));
    std::string path;
    std::string marks;
    for (size_t c = 0; c < series.points.size() && c < chart.categories.size(); ++c) {
        const auto& point = series.points[c];
        if (!point || !std::isfinite(point->value)) {
            continue;
        }
        const double x = layout.slot_centre(c) + offset;
        path += fmt::format("{}{},{}", path.empty() ? "" : " ", number(x), number(y(point->value)));
        marks += point_mark(chart, s, c, x, y);
    }
    std::string out;
    if (!path.empty() && chart.connect) {
        out += fmt::format("<polyline class=\"bb-series\" fill=\"none\" stroke=\"{}\" "
                           "stroke-opacity=\"0.5\" points=\"{}\"/>\n",
                           colour(s), path);
    }
    out += marks;
    if (count > 1) {
        out += legend_entry(s, layout.left + 10 + static_cast<double>(s) * 130, 30, series.name);
    }
    return out;
}

} // namespace

std::string svg_point_chart(const PointChart& chart) {
    const PointLayout layout = point_layout(chart);
    std::vector<double> values;
    for (const auto& series : chart.series) {
        for (const auto& point : series.points) {
            if (point) {
                values.insert(values.end(), {point->value, point->ci.low, point->ci.high});
                values.insert(values.end(), point->samples.begin(), point->samples.end());
            }
        }
    }
    const auto [low, high] = value_range(values, false);
    const auto ticks = nice_ticks(low, high);
    const Scale y{std::min(low, ticks.empty() ? low : ticks.front()),
                  std::max(high, ticks.empty() ? high : ticks.back()), layout.bottom, layout.top};

    std::string out = svg_open(layout.width, layout.height, chart.title);
    out += y_axis(y, ticks, layout.left, layout.right, chart.y_title);
    out += line(layout.left, layout.bottom, layout.right, layout.bottom, "bb-axis");
    out += category_labels(chart, layout);
    out += text((layout.left + layout.right) / 2, layout.height - 14, chart.x_title, "middle",
                "bb-axis-title");
    for (size_t s = 0; s < chart.series.size(); ++s) {
        out += point_series(chart, s, layout, y);
    }
    return out + "</svg>\n";
}

namespace {

// One group's ECDF as a step path: flat at 0 from the frame's left edge, up 1/n at each boot,
// flat at 1 to the right edge. Ties climb in one step of k/n.
std::string ecdf_path(const std::vector<double>& sorted, size_t s, const Scale& x, const Scale& y,
                      const std::string& tip) {
    const auto n = static_cast<double>(sorted.size());
    std::string d = fmt::format("M{},{}", number(x(x.low)), number(y(0)));
    for (size_t i = 0; i < sorted.size(); ++i) {
        d += fmt::format(" H{} V{}", number(x(sorted[i])),
                         number(y(static_cast<double>(i + 1) / n)));
    }
    d += fmt::format(" H{}", number(x(x.high)));
    return fmt::format("<path class=\"bb-ecdf\" data-n=\"{}\" fill=\"none\" stroke=\"{}\" "
                       "stroke-width=\"2\" d=\"{}\"><title>{}</title></path>\n",
                       sorted.size(), colour(s), d, html_escape(tip));
}

std::vector<double> finite_sorted(const std::vector<double>& values) {
    std::vector<double> out;
    std::copy_if(values.begin(), values.end(), std::back_inserter(out),
                 [](double value) { return std::isfinite(value); });
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

// The vertical grid lines at the ticks of a horizontal value axis, their labels under the plot,
// and the axis title at the foot of the chart.
std::string x_axis_grid(const std::vector<double>& ticks, const Scale& x, double top, double bottom,
                        double height, const std::string& title) {
    std::string out;
    for (double tick : ticks) {
        out += line(x(tick), top, x(tick), bottom, "bb-grid", "#ddd");
        out += text(x(tick), bottom + 14, tick_label(tick), "middle", "bb-tick");
    }
    return out + text((x.from + x.to) / 2, height - 10, title, "middle", "bb-axis-title");
}

std::string svg_ecdf_chart(const EcdfChart& chart) {
    std::vector<std::vector<double>> sorted;
    std::vector<double> all;
    size_t longest = 0;
    for (const auto& series : chart.series) {
        sorted.push_back(finite_sorted(series.values));
        all.insert(all.end(), sorted.back().begin(), sorted.back().end());
        longest = std::max(longest, std::min(series.name.size(), k_max_label) + 14);
    }
    const double left = 70;
    // The legend stands in the plot's upper left, where an ECDF has not yet climbed.
    const double width = std::max({560.0, 40.0 + 8.0 * static_cast<double>(chart.title.size()),
                                   left + 40 + 6.5 * static_cast<double>(longest)});
    const double right = width - 20;
    const double height = 340;
    const double top = 34;
    const double bottom = height - 50;
    const auto [low, high] = value_range(all, false);
    const auto x_ticks = nice_ticks(low, high);
    const Scale x{std::min(low, x_ticks.empty() ? low : x_ticks.front()),
                  std::max(high, x_ticks.empty() ? high : x_ticks.back()), left, right};
    const Scale y{0, 1, bottom, top};

    std::string out = svg_open(width, height, chart.title);
    out += y_axis(y, {0, 0.25, 0.5, 0.75, 1}, left, right, "fraction of boots ≤ x");
    out += line(left, bottom, right, bottom, "bb-axis");
    for (double tick : x_ticks) {
        out += text(x(tick), bottom + 14, tick_label(tick), "middle", "bb-tick");
    }
    out += text((left + right) / 2, height - 14, chart.x_title, "middle", "bb-axis-title");
    for (size_t s = 0; s < chart.series.size(); ++s) {
        const auto& values = sorted[s];
        if (values.empty()) {
            continue;
        }
        const double median = stats::sorted_median(values);
        out += ecdf_path(values, s, x, y,
                         fmt::format("{}: {} boot{}, median {:g}", chart.series[s].name,
                                     values.size(), values.size() == 1 ? "" : "s", median));
        out += legend_entry(s, left + 10, top + 6 + 16 * static_cast<double>(s),
                            shortened_label(chart.series[s].name));
    }
    return out + "</svg>\n";
}

std::string svg_bar_chart(const BarChart& chart) {
    const double row_height = 22;
    const double label_width = 170;
    const double width = 720;
    const double top = 34;
    const double height = top + row_height * static_cast<double>(chart.rows.size()) + 44;
    const double left = label_width;
    const double right = width - 24;
    std::vector<double> values;
    for (const auto& row : chart.rows) {
        values.insert(values.end(), {row.value, row.ci.low, row.ci.high});
    }
    const auto [low, high] = value_range(values, true);
    const auto ticks = nice_ticks(low, high);
    const Scale x{std::min(low, ticks.empty() ? low : ticks.front()),
                  std::max(high, ticks.empty() ? high : ticks.back()), left, right};
    const double bottom = top + row_height * static_cast<double>(chart.rows.size());

    std::string out = svg_open(width, height, chart.title) +
                      x_axis_grid(ticks, x, top, bottom, height, chart.x_title);
    for (size_t r = 0; r < chart.rows.size(); ++r) {
        const BarRow& row = chart.rows[r];
        const double y = top + row_height * static_cast<double>(r);
        out += text(left - 8, y + row_height / 2 + 4, row.label, "end",
                    row.emphasized ? "bb-label bb-emphasized" : "bb-label",
                    row.emphasized ? " font-weight=\"bold\"" : "");
        if (std::isfinite(row.value)) {
            const double from = std::min(x(0), x(row.value));
            const double to = std::max(x(0), x(row.value));
            out += fmt::format(
                "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">"
                "<title>{}</title></rect>\n",
                row.emphasized ? "bb-bar bb-geomean" : "bb-bar", number(from), number(y + 4),
                number(std::max(to - from, 0.5)), number(row_height - 8),
                row.value <= 0 ? colour(2) : colour(1),
                html_escape(fmt::format("{}: {:+.2f}", row.label, row.value)));
        }
        if (std::isfinite(row.ci.low) && std::isfinite(row.ci.high)) {
            const double middle = y + row_height / 2;
            out += line(x(row.ci.low), middle, x(row.ci.high), middle, "bb-ci", "#222");
            out += line(x(row.ci.low), middle - 4, x(row.ci.low), middle + 4, "bb-ci-cap", "#222");
            out +=
                line(x(row.ci.high), middle - 4, x(row.ci.high), middle + 4, "bb-ci-cap", "#222");
        }
    }
    out += line(x(0), top, x(0), bottom, "bb-axis bb-zero");
    return out + "</svg>\n";
}

std::string svg_histogram_chart(const HistogramChart& chart) {
    const size_t panels = chart.panels.size();
    const size_t per_row = std::min<size_t>(2, std::max<size_t>(1, panels));
    const size_t rows = (panels + per_row - 1) / per_row;
    const double panel_width = 380;
    const double panel_height = 260;
    const double width = panel_width * static_cast<double>(per_row);
    const double height = 30 + panel_height * static_cast<double>(std::max<size_t>(1, rows));
    // A bar's height: its count, or (normalised) its share of the panel's total in %.
    const auto height_of = [&chart](const HistogramPanel& panel, double count) {
        return chart.normalised ? (panel.total > 0 ? count / panel.total * 100 : 0) : count;
    };
    size_t buckets = 0;
    double highest = 0;
    for (const auto& panel : chart.panels) {
        buckets = std::max(buckets, panel.counts.size());
        for (double count : panel.counts) {
            highest = std::max(highest, height_of(panel, count));
        }
    }
    const double last_edge = chart.first_edge + chart.width * static_cast<double>(buckets);
    // Headroom above the tallest bar so the percentile labels stay clear of it.
    const double headroom = highest > 0 ? highest * 1.1 : 1;
    const auto y_ticks = nice_ticks(0, headroom, 4);
    const double y_top = std::max(headroom, y_ticks.empty() ? 1 : y_ticks.back());
    const auto x_ticks = nice_ticks(chart.first_edge, last_edge, 4);

    std::string out = svg_open(width, height, chart.title);
    for (size_t p = 0; p < panels; ++p) {
        const HistogramPanel& panel = chart.panels[p];
        const double origin_x = panel_width * static_cast<double>(p % per_row);
        const double origin_y = 30 + panel_height * static_cast<double>(p / per_row);
        const double left = origin_x + 60;
        const double right = origin_x + panel_width - 14;
        const double top = origin_y + 24;
        const double bottom = origin_y + panel_height - 44;
        const Scale x{chart.first_edge, last_edge, left, right};
        const Scale y{0, y_top, bottom, top};
        out += fmt::format("<g class=\"bb-panel\">\n");
        out += text((left + right) / 2, origin_y + 14, panel.title, "middle", "bb-panel-title");
        for (double tick : y_ticks) {
            out += line(left, y(tick), right, y(tick), "bb-grid", "#ddd");
            out += text(left - 5, y(tick) + 4, tick_label(tick), "end", "bb-tick");
        }
        for (double tick : x_ticks) {
            out += text(x(tick), bottom + 14, tick_label(tick), "middle", "bb-tick");
        }
        for (size_t b = 0; b < panel.counts.size(); ++b) {
            const double count = panel.counts[b];
            if (!(count > 0)) {
                continue;
            }
            const double lo = chart.first_edge + chart.width * static_cast<double>(b);
            const double shown = height_of(panel, count);
            const std::string tip =
                chart.normalised
                    ? fmt::format("{}: {:g} – {:g}: {:g} ({:.2f} % of {:g})", panel.title, lo,
                                  lo + chart.width, count, shown, panel.total)
                    : fmt::format("{}: {:g} – {:g}: {:g}", panel.title, lo, lo + chart.width,
                                  count);
            out += fmt::format(
                "<rect class=\"bb-bar bb-hist-bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                "fill=\"{}\"><title>{}</title></rect>\n",
                number(x(lo)), number(y(shown)),
                number(std::max(x(lo + chart.width) - x(lo) - 1, 0.5)), number(y(0) - y(shown)),
                colour(p), html_escape(tip));
        }
        for (size_t m = 0; m < panel.markers.size(); ++m) {
            const HistogramMarker& marker = panel.markers[m];
            if (!std::isfinite(marker.at)) {
                continue;
            }
            // Labels stepped down so that close percentiles stay readable.
            out += line(x(marker.at), top, x(marker.at), bottom, "bb-percentile", "#333");
            out += text(x(marker.at) + 2, top + 10 + 11 * static_cast<double>(m), marker.label,
                        "start", "bb-percentile-label");
        }
        out += line(left, bottom, right, bottom, "bb-axis");
        out += line(left, top, left, bottom, "bb-axis");
        out += text((left + right) / 2, bottom + 32, chart.x_title, "middle", "bb-axis-title");
        const double middle = (top + bottom) / 2;
        out += text(
            origin_x + 14, middle, chart.normalised ? "% of the group's counts" : "count", "middle",
            "bb-axis-title",
            fmt::format(" transform=\"rotate(-90 {} {})\"", number(origin_x + 14), number(middle)));
        out += "</g>\n";
    }
    return out + "</svg>\n";
}

namespace {

// Where a stacked chart's parts go: a label column as wide as the longest label, one row a bar.
struct StackLayout {
    double label_width = 0;
    double width = 0;
    double left = 0;
    double right = 0;
    double top = 0;
    double row = 26;
    double bottom = 0;
    double height = 0;
};

StackLayout stack_layout(const StackedBarChart& chart) {
    size_t longest = 0;
    for (const auto& bar : chart.bars) {
        longest = std::max(longest, std::min(bar.label.size(), k_max_label));
    }
    StackLayout layout;
    layout.label_width = std::max(90.0, 6.5 * static_cast<double>(longest) + 16);
    layout.width = std::max(
        {720.0, layout.label_width + 420, 40.0 + 8.0 * static_cast<double>(chart.title.size())});
    layout.left = layout.label_width;
    layout.right = layout.width - 24;
    layout.top = 58; // title, then the legend's row
    layout.bottom = layout.top + layout.row * static_cast<double>(chart.bars.size());
    layout.height = layout.bottom + 44;
    return layout;
}

// One bar: its segments left to right from 0, then the total's outline over them.
std::string stacked_bar(const StackedBarChart& chart, const StackedBar& bar, double y,
                        const StackLayout& layout, const Scale& x) {
    std::string out = fmt::format("<g class=\"bb-stack\">\n") +
                      text(layout.left - 8, y + layout.row / 2 + 4, shortened_label(bar.label),
                           "end", "bb-label");
    double start = 0;
    for (size_t s = 0; s < bar.segments.size() && s < chart.segment_names.size(); ++s) {
        const double value = bar.segments[s];
        if (!std::isfinite(value)) {
            continue;
        }
        // A negative part (moments out of order) is not drawn: a bar cannot go backwards.
        const double shown = std::max(value, 0.0);
        out += fmt::format(
            "<rect class=\"bb-segment\" data-segment=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
            "height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n",
            html_escape(chart.segment_names[s]), number(x(start)), number(y + 4),
            number(std::max(x(start + shown) - x(start), 0.0)), number(layout.row - 8), colour(s),
            html_escape(fmt::format("{}: {}: {:g}", bar.label, chart.segment_names[s], value)));
        start += shown;
    }
    if (std::isfinite(bar.total)) {
        out += fmt::format(
            "<rect class=\"bb-total\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
            "fill=\"none\" stroke=\"#333\" stroke-dasharray=\"4 3\"><title>{}"
            "</title></rect>\n",
            number(x(0)), number(y + 2), number(std::max(x(bar.total) - x(0), 0.5)),
            number(layout.row - 4),
            html_escape(fmt::format("{}: {}: {:g}", bar.label, chart.total_name, bar.total)));
    }
    return out + "</g>\n";
}

std::string stack_legend(const StackedBarChart& chart, const StackLayout& layout) {
    std::string out;
    double at = layout.left;
    for (size_t s = 0; s < chart.segment_names.size(); ++s) {
        out += legend_entry(s, at, 30, chart.segment_names[s]);
        at += 24 + 6.5 * static_cast<double>(chart.segment_names[s].size());
    }
    if (!chart.total_name.empty()) {
        out += fmt::format("<rect class=\"bb-legend\" x=\"{}\" y=\"30\" width=\"10\" height=\"10\" "
                           "fill=\"none\" stroke=\"#333\" stroke-dasharray=\"2 2\"/>\n",
                           number(at));
        out += text(at + 14, 39, chart.total_name, "start", "bb-legend-text");
    }
    return out;
}

} // namespace

std::string svg_stacked_bar_chart(const StackedBarChart& chart) {
    const StackLayout layout = stack_layout(chart);
    std::vector<double> values;
    for (const auto& bar : chart.bars) {
        double sum = 0;
        for (double value : bar.segments) {
            sum += std::isfinite(value) ? std::max(value, 0.0) : 0;
        }
        values.insert(values.end(), {sum, bar.total});
    }
    const auto [low, high] = value_range(values, true);
    const auto ticks = nice_ticks(low, high);
    const Scale x{std::min(low, ticks.empty() ? low : ticks.front()),
                  std::max(high, ticks.empty() ? high : ticks.back()), layout.left, layout.right};

    std::string out = svg_open(layout.width, layout.height, chart.title);
    out += stack_legend(chart, layout);
    for (double tick : ticks) {
        out += line(x(tick), layout.top, x(tick), layout.bottom, "bb-grid", "#ddd");
        out += text(x(tick), layout.bottom + 14, tick_label(tick), "middle", "bb-tick");
    }
    out += text((layout.left + layout.right) / 2, layout.height - 10, chart.x_title, "middle",
                "bb-axis-title");
    for (size_t b = 0; b < chart.bars.size(); ++b) {
        out += stacked_bar(chart, chart.bars[b], layout.top + layout.row * static_cast<double>(b),
                           layout, x);
    }
    out += line(x(0), layout.top, x(0), layout.bottom, "bb-axis");
    return out + "</svg>\n";
}

std::string svg_timeline_chart(const TimelineChart& chart) {
    const double row_height = 18;
    const double left = 230; // the labels' width: initcall names are long
    const double width = 760;
    const double right = width - 24;
    const double top = 34;
    const double bottom = top + row_height * static_cast<double>(chart.rows.size());
    const double height = bottom + 44;
    double end = 0;
    for (const auto& row : chart.rows) {
        if (std::isfinite(row.start) && std::isfinite(row.length)) {
            end = std::max(end, row.start + row.length);
        }
    }
    const auto ticks = nice_ticks(0, end);
    const Scale x{0, std::max(end, ticks.empty() ? end : ticks.back()), left, right};
    std::string out = svg_open(width, height, chart.title) +
                      x_axis_grid(ticks, x, top, bottom, height, chart.x_title);
    for (size_t r = 0; r < chart.rows.size(); ++r) {
        const TimelineRow& row = chart.rows[r];
        const double y = top + row_height * static_cast<double>(r);
        out += text(left - 8, y + row_height / 2 + 4, row.label, "end", "bb-label");
        if (!std::isfinite(row.start) || !std::isfinite(row.length)) {
            continue;
        }
        out += fmt::format("<rect class=\"bb-bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                           "fill=\"{}\"><title>{}</title></rect>\n",
                           number(x(row.start)), number(y + 3),
                           number(std::max(x(row.start + row.length) - x(row.start), 1.0)),
                           number(row_height - 6), colour(1),
                           html_escape(row.tooltip.empty() ? row.label : row.tooltip));
    }
    return out + "</svg>\n";
}

} // namespace bb
