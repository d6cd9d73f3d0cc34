// `bootbench history --html`: one self-contained page (html_page: inline style, inline SVG, no
// script, nothing fetched) with, per cell, the night medians over time with their intervals and
// the nights that start a shift ringed, then the tables the text prints. Every value goes
// through html_escape.
#include "report/history.h"
#include "report/history_attribution.h"
#include "report/html_report.h"
#include "report/phase_view.h"
#include "report/render_support.h"
#include "report/svg_chart.h"
#include "util/markup_escape.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

std::string note(const std::string& text) {
    return fmt::format("<p class=\"bb-note\">{}</p>\n", html_escape(text));
}

// The night medians in time order, each with its boots as dots. As in the report, a night too
// small for an interval at the level asked for is drawn without whiskers rather than with
// [min, max] passed off as one.
PointChart night_chart(const History& history, const CellHistory& cell, const ColumnUnit& unit) {
    PointChart chart;
    chart.title = fmt::format("{}, {}: each night's median and its {:g} % interval", cell.cell_key,
                              history.metric, (1 - history.alpha) * 100);
    chart.x_title = "night (the run's start date); ringed: the first night of a shift";
    chart.y_title = unit.header(history.metric);
    chart.connect = true; // nights have an order: time
    PointSeries series;
    series.name = "night median";
    for (const HistoryNight& night : cell.nights) {
        chart.categories.push_back(night.date);
        ChartPoint point;
        point.value = night.median.estimate * unit.scale;
        if (night.median.answered()) {
            point.ci = {night.median.interval.low * unit.scale,
                        night.median.interval.high * unit.scale};
        }
        point.n = night.median.n_a;
        for (double value : night.values) {
            point.samples.push_back(value * unit.scale);
        }
        if (night.flagged) {
            point.flag = fmt::format("run {}: first night of a shift", night.run.run_id);
        }
        series.points.emplace_back(std::move(point));
    }
    chart.series.push_back(std::move(series));
    return chart;
}

Table change_table(const CellHistory& cell) {
    Table table;
    table.headers = {"first night", "run",   "date",    "after / before",
                     "p",           "level", "changed", "host change"};
    table.right_aligned = {true, true, false, false, true, true, false, false};
    for (const HistoryChange& change : cell.changes) {
        const HistoryNight& night = cell.nights[static_cast<size_t>(change.night)];
        table.rows.push_back(
            {std::to_string(change.night + 1), std::to_string(night.run.run_id), night.date,
             history_ratio_text(change.point.ratio), p_value_text(change.point.p_value),
             fmt::format("{:.3g}", change.point.tested_at), history_changed_text(change),
             change.host_change ? "yes: may be the machine's" : "no"});
    }
    return table;
}

// Per change point, the phases that carry it (nights as units), as the text says it.
std::string change_phase_sections(const CellHistory& cell) {
    std::string out;
    for (const HistoryChange& change : cell.changes) {
        if (!change.phases) {
            continue;
        }
        const ChangeAttribution& phases = *change.phases;
        out += note(fmt::format("Where the shift at {} goes: {}. Carried by: {}.",
                                history_night_label(cell, change.night), change_levels_text(phases),
                                change_carriers_text(phases)));
        out += html_table(change_attribution_table(phases));
        out += note(attribution_lines(phases.attribution).back() + ".");
    }
    return out;
}

std::string cell_section(const History& history, const CellHistory& cell) {
    double representative = 0;
    for (const auto& night : cell.nights) {
        representative =
            std::isfinite(night.median.estimate) ? night.median.estimate : representative;
    }
    const ColumnUnit unit = column_unit(history.seconds, history.unit, representative);
    std::string out = fmt::format("<h2>{}</h2>\n", html_escape("cell " + cell.cell_key));
    out += svg_point_chart(night_chart(history, cell, unit));
    if (!cell.insufficient.empty()) {
        out += note("Change points: " + cell.insufficient + ".");
    } else if (cell.changes.empty()) {
        out += note(fmt::format("Change points: none at α = {:g} over {} nights.", history.alpha,
                                cell.nights.size()));
    } else {
        out += html_table(change_table(cell));
        out += change_phase_sections(cell);
    }
    out += note(history_variance_text(cell));
    return out + html_table(history_nights_table(history, cell));
}

} // namespace

std::string render_history_html(const History& history, const HtmlContext& context) {
    std::string body = note(fmt::format(
        "{} nightly runs of {} ({} … {}). A night's boots give its median; change points: {}, "
        "α = {:g} (docs/nightly.md, \"History and change points\").",
        history.nights.size(), history.experiment, history.nights.front().started_at.substr(0, 10),
        history.nights.back().started_at.substr(0, 10), stats::k_method_change_points,
        history.alpha));
    for (const CellHistory& cell : history.cells) {
        body += cell_section(history, cell);
    }
    return html_page(context, body);
}

} // namespace bb
