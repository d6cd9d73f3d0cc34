#include "report/history_attribution.h"

#include "report/phase_view.h"
#include "report/render_support.h"
#include "report/sample_query.h"
#include "stats/sorted.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bb {

namespace {

// The nights [from, to) of a cell as one group whose values are night medians: per phase the
// median of the night's values of it, a night without any giving none.
PhaseSet night_level(const CellHistory& cell, const std::map<long long, const PhaseGroup*>& groups,
                     int from, int to) {
    PhaseGroup level;
    level.key = {text_sql_value(cell.cell_key)};
    for (int i = from; i < to; ++i) {
        const auto found = groups.find(cell.nights[static_cast<size_t>(i)].run.run_id);
        if (found == groups.end()) {
            continue; // no boot of that night divides (all failed, loaded, or from a marker)
        }
        const PhaseGroup& night = *found->second;
        for (size_t p = 0; p <= k_phase_count; ++p) {
            const std::vector<double>& values = phase_group_values(night, p);
            auto& into = p < k_phase_count ? level.phases[p] : level.endpoint;
            if (!values.empty()) {
                into.push_back(stats::sorted_median_of(values));
            }
        }
        ++level.boots;
        ++level.entered;
    }
    PhaseSet set;
    set.axes = {std::string(k_cell_axis)};
    set.boots = level.boots;
    set.entered = level.entered;
    set.groups.push_back(std::move(level));
    return set;
}

std::shared_ptr<const ChangeAttribution>
attribute_change(const CellHistory& cell, size_t index,
                 const std::map<long long, const PhaseGroup*>& groups, double alpha) {
    auto change = std::make_shared<ChangeAttribution>();
    change->night = cell.changes[index].night;
    change->first_before = index == 0 ? 0 : cell.changes[index - 1].night;
    change->end_after = index + 1 < cell.changes.size() ? cell.changes[index + 1].night
                                                        : static_cast<int>(cell.nights.size());
    change->before = night_level(cell, groups, change->first_before, change->night);
    change->after = night_level(cell, groups, change->night, change->end_after);
    change->attribution = attribute_phases(change->before, change->after, {.alpha = alpha});
    return change;
}

// "nights 1–6": 1-based, as the tables number them.
std::string nights_text(int from, int to) {
    return to - from == 1 ? fmt::format("night {}", from + 1)
                          : fmt::format("nights {}–{}", from + 1, to);
}

} // namespace

void attribute_history_changes(History& history, const PhaseHistory& phases) {
    for (CellHistory& cell : history.cells) {
        std::map<long long, const PhaseGroup*> groups; // run id → the night's phase group
        for (const auto& phase_cell : phases.cells) {
            if (phase_cell.cell_key != cell.cell_key) {
                continue;
            }
            for (const auto& group : phase_cell.nights.groups) {
                groups[group.key[1].integer] = &group; // keys: night, run, date
            }
        }
        for (size_t c = 0; c < cell.changes.size(); ++c) {
            cell.changes[c].phases = attribute_change(cell, c, groups, history.alpha);
        }
    }
}

std::string change_levels_text(const ChangeAttribution& change) {
    return fmt::format("per phase, B = {} against A = {}, one value per night (the median of its "
                       "used boots' phase values)",
                       nights_text(change.night, change.end_after),
                       nights_text(change.first_before, change.night));
}

void attribute_history_changes(Database& db, const HistoryQuery& query, History& history) {
    if (query.metric != "boot_seconds") {
        return; // the phases divide boot_seconds, not another metric
    }
    for (const CellHistory& cell : history.cells) {
        if (!cell.changes.empty()) {
            attribute_history_changes(history, query_phase_history(db, query));
            return;
        }
    }
}

std::string change_carriers_text(const ChangeAttribution& change) {
    const std::vector<std::string> names = carrying_phases(change.attribution.groups.front());
    return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

Table change_attribution_table(const ChangeAttribution& change) {
    // The cell is named above the history's table and the spans in the phases' line: their
    // columns would repeat them in every row.
    Table table = attribution_table(change.attribution);
    // By name and by the label count, not by position: the axes' columns come first.
    const auto span = std::find(table.headers.begin(), table.headers.end(), "span");
    if (span != table.headers.end()) {
        drop_column(table, static_cast<size_t>(span - table.headers.begin()));
    }
    for (size_t label = 0; label < table.label_columns; ++label) {
        drop_column(table, 0);
    }
    table.label_columns = 0;
    table.headers.back() = "carries"; // "95 % interval excludes 0": the phases' line says so
    return table;
}

std::string render_change_attribution(const ChangeAttribution& change, size_t width) {
    std::string out = "where the shift goes: " + change_levels_text(change) + "\n";
    out += render_aligned(change_attribution_table(change), width > 2 ? width - 2 : width);
    const std::vector<std::string> lines = attribution_lines(change.attribution);
    // The group's line starts with the cell's key ("KEY: the endpoint moved; carried by …").
    const std::string prefix = change.before.groups.front().key.front().text + ": ";
    const std::string& finding = lines.front();
    out += (finding.rfind(prefix, 0) == 0 ? finding.substr(prefix.size()) : finding) + "\n";
    out += lines.back() + "\n";
    // Indented under its change point, as the changed inputs are.
    std::string indented;
    for (size_t begin = 0, newline = 0; begin < out.size(); begin = newline + 1) {
        newline = out.find('\n', begin);
        indented += "  " + out.substr(begin, newline - begin + 1);
    }
    return indented;
}

nlohmann::json change_attribution_json(const ChangeAttribution& change) {
    nlohmann::json out = attribution_json(change.attribution);
    out["unit"] = "night";
    out["method"] = "Hodges-Lehmann shift B - A with its exact Mann-Whitney interval, per "
                    "phase, one value per night (the median of the night's boots' phase "
                    "values); not adjusted over the phases";
    out["a_nights"] = {change.first_before + 1, change.night};
    out["b_nights"] = {change.night + 1, change.end_after};
    return out;
}

} // namespace bb
