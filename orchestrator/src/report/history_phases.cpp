#include "report/history_phases.h"

#include "report/html_report.h"
#include "report/phase_view.h"
#include "report/render_support.h"
#include "report/svg_chart.h"
#include "report/text_document.h"
#include "util/error.h"
#include "util/markup_escape.h"

#include <fmt/format.h>
#include <map>

namespace bb {

namespace {

// The groups of (cell, run) regrouped per cell, each night keyed by its number, run and date.
std::vector<CellPhaseHistory> cells_by_night(const PhaseSet& set,
                                             const std::vector<NightRun>& nights) {
    std::map<long long, size_t> night_of_run;
    for (size_t i = 0; i < nights.size(); ++i) {
        night_of_run[nights[i].run_id] = i;
    }
    std::map<std::string, std::map<size_t, PhaseGroup>> by_cell;
    for (const auto& group : set.groups) {
        const size_t night = night_of_run.at(group.key[1].integer);
        PhaseGroup renamed = group;
        renamed.key = {integer_sql_value(static_cast<long long>(night) + 1),
                       integer_sql_value(nights[night].run_id),
                       text_sql_value(nights[night].started_at.substr(0, 10))};
        by_cell[group.key[0].label()][night] = std::move(renamed);
    }
    std::vector<CellPhaseHistory> cells;
    for (auto& [cell_key, groups] : by_cell) {
        CellPhaseHistory cell;
        cell.cell_key = cell_key;
        cell.nights.axes = {"night", "run", "date"};
        for (auto& [night, group] : groups) {
            cell.nights.boots += group.boots;
            cell.nights.entered += group.entered;
            cell.nights.groups.push_back(std::move(group));
        }
        cells.push_back(std::move(cell));
    }
    return cells;
}

std::string history_phase_note(const std::string& text) {
    return fmt::format("<p class=\"bb-note\">{}</p>\n", html_escape(text));
}

std::string phase_history_heading(const PhaseHistory& history) {
    std::string left_out;
    for (const auto& [marker, count] : history.from_marker) {
        left_out += fmt::format("\nleft out: {} boot{} whose endpoint is timed from the marker {} "
                                "(a nested boot's L2), not from qemu's start",
                                count, count == 1 ? "" : "s", marker);
    }
    return fmt::format("where boot time goes in {}, night by night: {} nightly run{} ({} … {}); "
                       "per night the median of each phase over the cell's used boots",
                       history.experiment, history.nights.size(),
                       history.nights.size() == 1 ? "" : "s",
                       history.nights.front().started_at.substr(0, 10),
                       history.nights.back().started_at.substr(0, 10)) +
           left_out;
}

} // namespace

PhaseHistory query_phase_history(Database& db, const HistoryQuery& query) {
    PhaseHistory history;
    history.experiment = query.experiment;
    history.nights = require_nightly_runs(db, query.experiment);
    SampleQuery samples;
    samples.experiment = query.experiment;
    for (const auto& night : history.nights) {
        samples.run_ids.push_back(night.run_id);
    }
    samples.only = query.only;
    samples.by = {std::string(k_cell_axis), std::string(k_run_axis)};
    const PhaseSet set = query_phases(db, samples);
    if (set.entered == 0) {
        throw Error(fmt::format("the {} nightly runs of '{}' have no boot that divides into "
                                "phases (failed, loaded, or timed from a start marker)",
                                history.nights.size(), query.experiment));
    }
    history.from_marker = set.from_marker;
    history.cells = cells_by_night(set, history.nights);
    return history;
}

std::string render_phase_history(const PhaseHistory& history, ReportFormat format, size_t width) {
    TextDocument doc(format, width);
    doc.title(phase_history_heading(history));
    for (const auto& cell : history.cells) {
        doc.heading(fmt::format("cell {}: {} night{}", cell.cell_key, cell.nights.groups.size(),
                                cell.nights.groups.size() == 1 ? "" : "s"));
        doc.table(phase_table(cell.nights));
        for (const auto& note : phase_notes(cell.nights)) {
            doc.line(note);
        }
    }
    return doc.str();
}

std::string render_phase_history_text(const PhaseHistory& history, size_t width) {
    return render_phase_history(history, ReportFormat::Text, width);
}

nlohmann::json phase_history_json(const PhaseHistory& history) {
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& cell : history.cells) {
        nlohmann::json entry = phase_view_json(cell.nights);
        entry["cell_key"] = cell.cell_key;
        cells.push_back(std::move(entry));
    }
    return {{"experiment", history.experiment},
            {"view", "phases"},
            {"nights", nights_json(history.nights)},
            {"timed_from_marker", history.from_marker},
            {"cells", std::move(cells)}};
}

std::string render_phase_history_html(const PhaseHistory& history, const HtmlContext& context) {
    std::string body = history_phase_note(phase_history_heading(history));
    for (const auto& cell : history.cells) {
        StackedBarChart chart = phase_chart(cell.nights);
        chart.title = "cell " + cell.cell_key + ": phase medians night by night";
        body += fmt::format("<h2>{}</h2>\n", html_escape("cell " + cell.cell_key)) +
                svg_stacked_bar_chart(chart) + html_table(phase_table(cell.nights));
        for (const auto& note : phase_notes(cell.nights)) {
            body += history_phase_note(note);
        }
    }
    return html_page(context, body);
}

} // namespace bb
