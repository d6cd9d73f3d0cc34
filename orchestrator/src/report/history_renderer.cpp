#include "report/history.h"
#include "report/history_attribution.h"
#include "report/initcall_comparison_renderer.h"
#include "report/render_support.h"
#include "report/text_document.h"
#include "report/text_table.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

// The page and the text say the same things in the same words.
std::string percent_text(double ratio) {
    return fmt::format("{:+.1f} %", (ratio - 1) * 100);
}

} // namespace

std::string history_ratio_text(const stats::Result& ratio) {
    std::string text = fmt::format("×{:.3f}", ratio.estimate);
    if (std::isfinite(ratio.interval.low) && std::isfinite(ratio.interval.high)) {
        text += fmt::format(" [{:.3f}, {:.3f}]", ratio.interval.low, ratio.interval.high);
    }
    text += fmt::format(" ({})", percent_text(ratio.estimate));
    if (!ratio.answered()) {
        text += fmt::format(" ({:.0f} % interval: {})", ratio.confidence * 100, ratio.insufficient);
    }
    return text;
}

namespace {

ValueFormat value_format(const History& history, const CellHistory& cell) {
    double representative = 0;
    for (const auto& night : cell.nights) {
        if (std::isfinite(night.median.estimate)) {
            representative = night.median.estimate;
        }
    }
    return {history.seconds, history.unit, representative};
}

} // namespace

Table history_nights_table(const History& history, const CellHistory& cell) {
    const ValueFormat format = value_format(history, cell);
    Table table;
    table.headers = {"night",
                     "run",
                     "date",
                     "median",
                     fmt::format("{:g}% CI", (1 - history.alpha) * 100),
                     "n",
                     "excluded",
                     "shift starts"};
    table.right_aligned = {true, true, false, true, false, true, true, false};
    for (size_t i = 0; i < cell.nights.size(); ++i) {
        const HistoryNight& night = cell.nights[i];
        std::string shift;
        for (const auto& change : cell.changes) {
            if (static_cast<size_t>(change.night) == i) {
                shift = "◆ " + percent_text(change.point.ratio.estimate) +
                        (change.host_change ? " (host changed)" : "");
            }
        }
        // A night that did not finish has fewer boots than planned: said beside its date.
        const std::string date =
            night.date + (night.run.status == "done" ? "" : " (" + night.run.status + ")");
        table.rows.push_back({std::to_string(i + 1), std::to_string(night.run.run_id), date,
                              format(night.median.estimate),
                              interval_text(night.median.interval, format, false) +
                                  (night.median.answered() ? "" : " *"),
                              std::to_string(night.median.n_a), std::to_string(night.excluded),
                              shift});
    }
    return table;
}

std::string history_variance_text(const CellHistory& cell) {
    const stats::NightVariance& variance = cell.variance;
    if (!variance.insufficient.empty()) {
        return "night and boot variance: " + variance.insufficient;
    }
    return fmt::format("SD night to night {:.2f} %, within a night {:.2f} % (log "
                       "scale{}; intraclass {:.2f})",
                       std::sqrt(variance.between) * 100, std::sqrt(variance.within) * 100,
                       cell.changes.empty() ? "" : ", levels apart", variance.intraclass());
}

// "night 8 (run 8, 2026-11-27)"
std::string history_night_label(const CellHistory& cell, int night) {
    const HistoryNight& entry = cell.nights[static_cast<size_t>(night)];
    return fmt::format("night {} (run {}, {})", night + 1, entry.run.run_id, entry.date);
}

std::string history_changed_text(const HistoryChange& change) {
    if (change.changed.empty()) {
        return "no recorded input changed (build key, kernel, patches, config, qemu, firmware, "
               "host)";
    }
    std::string text;
    for (const auto& input : change.changed) {
        text += fmt::format("{}{} {} → {}", text.empty() ? "" : "; ", input.input, input.before,
                            input.after);
    }
    return text;
}

namespace {

// Nights measured on a host whose conditions changed since the night before, flagged or not
// (as loaded boots are said): "host changed at night 4 (2026-12-04): governor a → b".
std::vector<std::string> host_changes_lines(const CellHistory& cell) {
    std::vector<std::string> lines;
    for (size_t i = 0; i < cell.nights.size(); ++i) {
        const HistoryNight& night = cell.nights[i];
        if (night.host_changes.empty()) {
            continue;
        }
        std::string changes;
        for (const auto& change : night.host_changes) {
            changes += fmt::format("{}{} {} → {}", changes.empty() ? "" : "; ", change.name,
                                   change.before, change.after);
        }
        lines.push_back(fmt::format("host changed at {}: {}",
                                    history_night_label(cell, static_cast<int>(i)), changes));
    }
    return lines;
}

// One change point: where, how much, what changed since the night before, and which phases and
// initcalls carry it.
void render_change(TextDocument& doc, const CellHistory& cell, const HistoryChange& change,
                   size_t width) {
    doc.line(fmt::format("shift at {}: {}, p = {} (level {:.3g})",
                         history_night_label(cell, change.night),
                         history_ratio_text(change.point.ratio), p_value_text(change.point.p_value),
                         change.point.tested_at));
    doc.line(fmt::format("changed since {}:{}", history_night_label(cell, change.night - 1),
                         change.changed.empty() ? " nothing recorded" : ""),
             1);
    for (const auto& input : change.changed) {
        doc.line(fmt::format("{} {} → {}", input.input, input.before, input.after), 2);
    }
    if (change.host_change) {
        doc.line("host change: the shift came with another host; it may be the machine's, not "
                 "the kernel's",
                 1);
    }
    if (change.phases) {
        doc.block(render_change_attribution(*change.phases, width));
    }
    if (change.initcalls) {
        doc.line("which initcalls carry it, one value per night (the median of its traced "
                 "boots):");
        doc.part(render_initcall_comparison(*change.initcalls, ReportFormat::Text, 5),
                 render_initcall_comparison(*change.initcalls, ReportFormat::Markdown, 5));
    }
}

} // namespace

std::string render_history(const History& history, ReportFormat format, size_t width) {
    TextDocument doc(format, width);
    doc.title(fmt::format("history of {}: {}, {} nightly run{} ({} … {})", history.experiment,
                          history.metric, history.nights.size(),
                          history.nights.size() == 1 ? "" : "s",
                          history.nights.front().started_at.substr(0, 10),
                          history.nights.back().started_at.substr(0, 10)));
    doc.line(fmt::format("change points: {}, α = {:g} (docs/nightly.md)",
                         stats::k_method_change_points, history.alpha));
    for (const CellHistory& cell : history.cells) {
        // Nights without a used boot of the cell are not in its table: say how many (issue 48
        // item 15: "8 nightly runs" above a table of 5 nights).
        const size_t without =
            history.nights.size() - std::min(history.nights.size(), cell.nights.size());
        doc.heading(fmt::format("cell {}: {} night{}{}", cell.cell_key, cell.nights.size(),
                                cell.nights.size() == 1 ? "" : "s",
                                without == 0 ? ""
                                             : fmt::format(" ({} of the {} nightly runs had no "
                                                           "used boot of it: failed, loaded or "
                                                           "absent)",
                                                           without, history.nights.size())));
        doc.table(history_nights_table(history, cell));
        const bool any_unanswered = std::any_of(cell.nights.begin(), cell.nights.end(),
                                                [](const auto& n) { return !n.median.answered(); });
        if (any_unanswered) {
            doc.line(fmt::format("* too few boots for a {:g} % interval: [min, max], which covers "
                                 "less (5 boots: 93.8 %; --json: confidence)",
                                 (1 - history.alpha) * 100));
        }
        doc.line(history_variance_text(cell));
        for (const auto& change : host_changes_lines(cell)) {
            doc.line(change);
        }
        if (!cell.insufficient.empty()) {
            doc.line("change points: " + cell.insufficient);
            continue;
        }
        if (!cell.visibility.empty()) {
            doc.line("visible: " + cell.visibility);
        }
        if (cell.changes.empty()) {
            doc.line(fmt::format("change points: none at α = {:g} over {} nights", history.alpha,
                                 cell.nights.size()));
            continue;
        }
        for (const HistoryChange& change : cell.changes) {
            render_change(doc, cell, change, width);
        }
    }
    return doc.str();
}

std::string render_history_text(const History& history, size_t width) {
    return render_history(history, ReportFormat::Text, width);
}

namespace {

nlohmann::json inputs_json(const NightInputs& inputs) {
    return {{"build_key", inputs.build_key},
            {"kernel", inputs.kernel},
            {"patches", inputs.patches},
            {"config", inputs.config},
            {"qemu", inputs.qemu},
            {"firmware", inputs.firmware},
            {"host", inputs.host}};
}

nlohmann::json host_changes_json(const std::vector<HostConditionChange>& changes) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& change : changes) {
        list.push_back({{"name", change.name}, {"before", change.before}, {"after", change.after}});
    }
    return list;
}

nlohmann::json variance_json(const stats::NightVariance& variance) {
    return {{"between", number_or_null(variance.between)},
            {"within", number_or_null(variance.within)},
            {"intraclass", number_or_null(variance.intraclass())},
            {"nights", variance.nights},
            {"boots", variance.boots},
            {"insufficient", variance.insufficient.empty()
                                 ? nlohmann::json(nullptr)
                                 : nlohmann::json(variance.insufficient)}};
}

nlohmann::json change_json(const CellHistory& cell, const HistoryChange& change) {
    const HistoryNight& night = cell.nights[static_cast<size_t>(change.night)];
    nlohmann::json changed = nlohmann::json::array();
    for (const auto& input : change.changed) {
        changed.push_back(
            {{"input", input.input}, {"before", input.before}, {"after", input.after}});
    }
    return {{"night", change.night + 1},
            {"run_id", night.run.run_id},
            {"date", night.date},
            {"p_value", number_or_null(change.point.p_value)},
            {"tested_at", number_or_null(change.point.tested_at)},
            {"ratio", result_json(change.point.ratio)},
            {"changed", changed},
            {"host_change", change.host_change},
            {"phases",
             change.phases ? change_attribution_json(*change.phases) : nlohmann::json(nullptr)},
            {"initcalls", change.initcalls ? initcall_comparison_json(*change.initcalls)
                                           : nlohmann::json(nullptr)}};
}

nlohmann::json cell_json(const CellHistory& cell) {
    nlohmann::json nights = nlohmann::json::array();
    for (size_t i = 0; i < cell.nights.size(); ++i) {
        const HistoryNight& night = cell.nights[i];
        nights.push_back({{"night", i + 1},
                          {"run_id", night.run.run_id},
                          {"started_at", night.run.started_at},
                          {"status", night.run.status},
                          {"median", result_json(night.median)},
                          {"n", night.median.n_a},
                          {"values", night.values},
                          {"excluded", night.excluded},
                          {"flagged", night.flagged},
                          {"inputs", inputs_json(night.inputs)},
                          {"host_changes", host_changes_json(night.host_changes)}});
    }
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& change : cell.changes) {
        changes.push_back(change_json(cell, change));
    }
    return {{"cell_key", cell.cell_key},
            {"nights", nights},
            {"variance", variance_json(cell.variance)},
            {"change_points", changes},
            {"tested", cell.insufficient.empty()},
            {"visibility",
             cell.visibility.empty() ? nlohmann::json(nullptr) : nlohmann::json(cell.visibility)},
            {"insufficient", cell.insufficient.empty() ? nlohmann::json(nullptr)
                                                       : nlohmann::json(cell.insufficient)}};
}

} // namespace

nlohmann::json nights_json(const std::vector<NightRun>& nights) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& night : nights) {
        list.push_back(
            {{"run_id", night.run_id}, {"started_at", night.started_at}, {"status", night.status}});
    }
    return list;
}

nlohmann::json history_json(const History& history) {
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& cell : history.cells) {
        cells.push_back(cell_json(cell));
    }
    return {{"experiment", history.experiment},
            {"metric", history.metric},
            {"unit", history.unit},
            {"alpha", history.alpha},
            {"method", stats::k_method_change_points},
            {"min_nights", k_min_history_nights},
            {"nights", nights_json(history.nights)},
            {"cells", cells}};
}

} // namespace bb
