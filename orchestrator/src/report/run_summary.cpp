#include "report/run_summary.h"

#include "report/noise_warnings.h"
#include "report/statistics.h"
#include "stats/sorted.h"
#include "store/boot_params.h"
#include "store/metric_queries.h"
#include "store/sample_selection.h"
#include "util/terminal.h"
#include "util/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bb {

namespace {

bool spans_hosts(const std::vector<SelectedBoot>& samples) {
    return std::any_of(samples.begin(), samples.end(),
                       [&](const auto& sample) { return sample.host != samples.front().host; });
}

} // namespace

std::vector<CellResult> load_run_results(Database& db, long long run_id) {
    std::map<std::string, CellResult> by_key;
    std::vector<std::string> order;
    std::map<long long, std::string> boot_cell;
    const std::vector<SelectedBoot> samples = run_boots(db, run_id);
    const bool by_host = spans_hosts(samples);
    for (const auto& sample : samples) {
        const std::string host = by_host ? sample.host : "";
        const std::string key = sample.cell_key + (host.empty() ? "" : " @" + host);
        auto [it, fresh] = by_key.try_emplace(key);
        CellResult& cell = it->second;
        if (fresh) {
            order.push_back(key);
            cell.cell_key = sample.cell_key;
            cell.host = host;
            cell.params = boot_params_as_stored(sample.params_json);
        }
        ++cell.boots;
        // A boot whose parameters did not take counts as failed: it is not the cell it stands
        // for; a failed boot that was also loaded counts as failed only.
        const bool ok = sample.outcome == "ok"; // "param-not-applied" otherwise
        cell.contaminated += ok && sample.loaded ? 1 : 0;
        // Failed and loaded samples are counted, not averaged.
        if (sample.used && sample.value) {
            ++cell.ok;
            cell.boot_seconds.push_back(*sample.value);
            cell.boot_ids.push_back(sample.boot_id);
            boot_cell[sample.boot_id] = key;
        }
    }
    for (const auto& metric : run_metrics(db, run_id)) {
        const auto cell = boot_cell.find(metric.boot_id);
        if (cell == boot_cell.end()) {
            continue;
        }
        CellResult& result = by_key[cell->second];
        result.metrics[metric.name].push_back(metric.value);
        result.metric_units[metric.name] = metric.unit;
    }
    std::vector<CellResult> results;
    for (const auto& key : order) {
        results.push_back(std::move(by_key[key]));
    }
    return results;
}

namespace {

// The metrics that fit in `room` columns, then "+N more (bootbench report --metric NAME)": the
// main job's cells carry dozens of guest metrics, and one line of all of them ran to 1,000
// columns (issue 49, item 1). The whole list is in `run --json` and `report`.
std::string metrics_within(const CellResult& cell, size_t room) {
    std::string shown;
    size_t left_out = 0;
    for (const auto& [name, values] : cell.metrics) {
        const std::string& unit = cell.metric_units.at(name);
        const std::string item = fmt::format("{}={:g}{}", name, stats::sorted_median_of(values),
                                             unit.empty() ? "" : " " + unit);
        const size_t needed = (shown.empty() ? 0 : 1) + item.size();
        if (left_out == 0 && shown.size() + needed <= room) {
            shown += (shown.empty() ? "" : " ") + item;
        } else {
            ++left_out;
        }
    }
    if (left_out > 0) {
        shown += fmt::format("{}+{} more", shown.empty() ? "" : " ", left_out);
    }
    return shown;
}

std::string noise_section(const std::vector<CellResult>& cells) {
    std::string out;
    for (const auto& cell : cells) {
        const std::string label =
            cell.host.empty() ? cell.cell_key : cell.cell_key + " @" + cell.host;
        for (const auto& warning : noise_warnings(label, cell.boot_seconds, cell.boot_ids)) {
            out += warning + "\n";
        }
    }
    return out.empty() ? out : out + noise_fix_hint() + "\n";
}

} // namespace

std::string render_run_summary(const std::vector<CellResult>& cells) {
    auto label = [](const CellResult& cell) {
        return cell.host.empty() ? cell.cell_key : cell.cell_key + " @" + cell.host;
    };
    size_t width = 4;
    for (const auto& cell : cells) {
        width = std::max(width, label(cell).size());
    }
    // "used/n": samples in the statistics / samples stored; failed and foreign-loaded samples
    // are counted in the next column, never averaged.
    std::string out = fmt::format("{:<{}}  {:>6}  {:>9}  {:>10}  {:>22}  {}\n", "cell", width,
                                  "used/n", "excluded", "median", "mean ± σ", "metrics (median)");
    for (const auto& cell : cells) {
        std::string median = "-";
        std::string mean = "-";
        if (!cell.boot_seconds.empty()) {
            const Summary s = summarize(cell.boot_seconds);
            const TimeUnit unit = unit_for_seconds(s.mean);
            median = format_seconds(s.median, unit);
            mean = fmt::format("{} ± {}", format_seconds(s.mean, unit),
                               format_seconds(s.stddev, unit));
        }
        // The columns before the metrics: the label, then 6 + 9 + 10 + 22 and five gaps of 2.
        const size_t before_metrics = width + 57;
        const size_t room =
            table_width() > before_metrics + 20 ? table_width() - before_metrics : 20;
        const std::string metrics = metrics_within(cell, room);
        const int failed = cell.boots - cell.ok - cell.contaminated;
        std::string excluded = "-";
        if (failed > 0 || cell.contaminated > 0) {
            excluded = fmt::format("{}f {}l", failed, cell.contaminated);
        }
        out +=
            fmt::format("{:<{}}  {:>6}  {:>9}  {:>10}  {:>22}  {}\n", label(cell), width,
                        fmt::format("{}/{}", cell.ok, cell.boots), excluded, median, mean, metrics);
    }
    return out + noise_section(cells);
}

nlohmann::json run_summary_json(const std::vector<CellResult>& cells) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& cell : cells) {
        const Summary s = summarize(cell.boot_seconds);
        nlohmann::json metrics = nlohmann::json::object();
        for (const auto& [name, values] : cell.metrics) {
            metrics[name] = {{"median", stats::sorted_median_of(values)},
                             {"unit", cell.metric_units.at(name)},
                             {"values", values}};
        }
        out.push_back({{"cell", cell.cell_key},
                       {"params", cell.params},
                       {"boots", cell.boots},
                       {"ok", cell.ok},
                       {"contaminated", cell.contaminated},
                       {"boot_seconds",
                        {{"median", s.median},
                         {"mean", s.mean},
                         {"stddev", s.stddev},
                         {"min", s.min},
                         {"max", s.max},
                         {"values", cell.boot_seconds}}},
                       {"metrics", metrics}});
        if (!cell.host.empty()) {
            out.back()["host"] = cell.host;
        }
    }
    return out;
}

} // namespace bb
