#include "report/history_initcalls.h"

#include "report/initcall_view.h"
#include "stats/sorted.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <map>
#include <optional>
#include <set>

namespace bb {

namespace {
using InitcallKey = std::pair<std::string, std::string>; // name, module

bool has_traces(Database& db) {
    try {
        SQLite::Statement query(db.sql(), "SELECT 1 FROM boots WHERE initcall_trace = "
                                          "'complete' LIMIT 1");
        return query.executeStep();
    } catch (const SQLite::Exception&) {
        return false; // no such column: the database predates schema 13
    }
}

// One night's traced boots of one cell as one "boot": every initcall's median over them (0 in
// a boot that did not run it), started at its median start; the time to /init likewise.
std::optional<TracedBoot> night_value(const InitcallGroupInput& night, long long run_id) {
    if (night.traced.empty()) {
        return std::nullopt;
    }
    std::map<InitcallKey, std::vector<double>> seconds;
    std::map<InitcallKey, std::vector<double>> starts;
    std::vector<double> kernel_init;
    for (const auto& boot : night.traced) {
        for (const auto& call : boot.initcalls) {
            starts[{call.name, call.module}].push_back(call.start_s);
        }
        if (!std::isnan(boot.kernel_init_s)) {
            kernel_init.push_back(boot.kernel_init_s);
        }
    }
    for (const auto& boot : night.traced) {
        std::map<InitcallKey, double> per_boot;
        for (const auto& call : boot.initcalls) {
            per_boot[{call.name, call.module}] += static_cast<double>(call.duration_us) * 1e-6;
        }
        for (const auto& [key, ignored] : starts) {
            const auto found = per_boot.find(key);
            seconds[key].push_back(found == per_boot.end() ? 0.0 : found->second);
        }
    }
    TracedBoot value{.boot_id = run_id};
    if (!kernel_init.empty()) {
        value.kernel_init_s = stats::sorted_median_of(kernel_init);
    }
    for (const auto& [key, values] : seconds) {
        value.initcalls.push_back(
            {key.first, key.second, stats::sorted_median_of(starts.at(key)),
             static_cast<long long>(std::llround(stats::sorted_median_of(values) * 1e6)), 0});
    }
    return value;
}

// Per night (run id) of the history: the cell's night value, when the night has traced boots.
std::map<long long, TracedBoot> traced_nights(Database& db, const HistoryQuery& query,
                                              const CellHistory& cell) {
    std::map<long long, TracedBoot> nights;
    for (const auto& night : cell.nights) {
        SampleQuery selection;
        selection.experiment = query.experiment;
        selection.run_ids = {night.run.run_id};
        selection.by = {std::string(k_cell_axis)};
        selection.only = query.only;
        selection.only.emplace_back(std::string(k_cell_axis),
                                    std::vector<std::string>{cell.cell_key});
        try {
            const InitcallInputs inputs = query_initcall_inputs(db, selection);
            for (const auto& group : inputs.groups) {
                if (auto value = night_value(group, night.run.run_id)) {
                    nights.emplace(night.run.run_id, std::move(*value));
                }
            }
        } catch (const Error&) {
            // no used boot of the night has a complete trace: the night gives no value
        }
    }
    return nights;
}

InitcallInputs level(const CellHistory& cell, const std::map<long long, TracedBoot>& nights,
                     int from, int to) {
    InitcallGroupInput group;
    for (int i = from; i < to; ++i) {
        const auto found = nights.find(cell.nights[static_cast<size_t>(i)].run.run_id);
        ++group.used;
        if (found == nights.end()) {
            ++group.untraced;
        } else {
            group.traced.push_back(found->second);
        }
    }
    return {.axes = {}, .groups = {std::move(group)}};
}
} // namespace

void attribute_history_initcalls(Database& db, const HistoryQuery& query, History& history) {
    if (query.metric != "boot_seconds" || !has_traces(db)) {
        return;
    }
    for (CellHistory& cell : history.cells) {
        if (cell.changes.empty()) {
            continue;
        }
        const auto nights = traced_nights(db, query, cell);
        for (size_t c = 0; c < cell.changes.size(); ++c) {
            const int night = cell.changes[c].night;
            const int first = c == 0 ? 0 : cell.changes[c - 1].night;
            const int end = c + 1 < cell.changes.size() ? cell.changes[c + 1].night
                                                        : static_cast<int>(cell.nights.size());
            auto comparison = std::make_shared<InitcallComparison>(
                compare_initcalls(level(cell, nights, first, night),
                                  level(cell, nights, night, end), {.alpha = history.alpha}));
            comparison->unit = "nights";
            if (!comparison->groups.empty()) {
                cell.changes[c].initcalls = std::move(comparison);
            }
        }
    }
}

} // namespace bb
