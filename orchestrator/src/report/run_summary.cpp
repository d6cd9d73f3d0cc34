#include "report/run_summary.h"

#include "report/load_rule.h"
#include "report/statistics.h"
#include "util/units.h"

#include <fmt/format.h>
#include <map>

namespace bb {

std::vector<CellResult> load_run_results(Database& db, long long run_id) {
    std::map<std::string, CellResult> by_key;
    std::vector<std::string> order;
    // The host of a boot: its own (fleet runs) or its run's. A boot whose parameters did
    // not take counts as failed: it is not the cell it stands for.
    const char* host_sql = "(SELECT coalesce(h.libvirt_uri, h.hostname) FROM hosts h WHERE h.id = "
                           "coalesce(b.host_id, r.host_id))";
    SQLite::Statement hosts(db.sql(), fmt::format("SELECT count(DISTINCT {}) FROM boots b JOIN "
                                                  "runs r ON r.id = b.run_id WHERE b.run_id = ?",
                                                  host_sql));
    hosts.bind(1, static_cast<int64_t>(run_id));
    const bool by_host = hosts.executeStep() && hosts.getColumn(0).getInt() > 1;
    SQLite::Statement boots(db.sql(),
                            fmt::format("SELECT b.id, b.cell_key, b.params_json, CASE WHEN "
                                        "b.params_not_applied IS NULL THEN b.outcome ELSE "
                                        "'param-not-applied' END, "
                                        "b.boot_seconds, {}, {} FROM boots b JOIN "
                                        "runs r ON r.id = b.run_id WHERE b.run_id = ? ORDER BY "
                                        "b.id",
                                        k_loaded_sql, host_sql));
    boots.bind(1, static_cast<int64_t>(run_id));
    std::map<long long, std::string> boot_cell;
    while (boots.executeStep()) {
        const std::string host = by_host ? boots.getColumn(6).getString() : "";
        const std::string key = boots.getColumn(1).getString() + (host.empty() ? "" : " @" + host);
        auto [it, fresh] = by_key.try_emplace(key);
        CellResult& cell = it->second;
        if (fresh) {
            order.push_back(key);
            cell.cell_key = boots.getColumn(1).getString();
            cell.host = host;
            cell.params = nlohmann::json::parse(boots.getColumn(2).getString(), nullptr, false);
        }
        ++cell.boots;
        const bool ok = boots.getColumn(3).getString() == "ok";
        const bool contaminated = boots.getColumn(5).getInt() != 0;
        cell.contaminated += ok && contaminated ? 1 : 0; // a failed boot counts as failed
        // Failed and contaminated samples are counted, not averaged.
        if (ok && !contaminated && !boots.getColumn(4).isNull()) {
            ++cell.ok;
            cell.boot_seconds.push_back(boots.getColumn(4).getDouble());
            boot_cell[boots.getColumn(0).getInt64()] = key;
        }
    }
    SQLite::Statement metrics(db.sql(), "SELECT m.boot_id, m.name, m.value, m.unit FROM metrics m "
                                        "JOIN boots b ON b.id = m.boot_id WHERE b.run_id = ?");
    metrics.bind(1, static_cast<int64_t>(run_id));
    while (metrics.executeStep()) {
        const auto cell = boot_cell.find(metrics.getColumn(0).getInt64());
        if (cell == boot_cell.end()) {
            continue;
        }
        CellResult& result = by_key[cell->second];
        const std::string name = metrics.getColumn(1).getString();
        result.metrics[name].push_back(metrics.getColumn(2).getDouble());
        result.metric_units[name] = metrics.getColumn(3).getString();
    }
    std::vector<CellResult> results;
    for (const auto& key : order) {
        results.push_back(std::move(by_key[key]));
    }
    return results;
}

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
        std::string metrics;
        for (const auto& [name, values] : cell.metrics) {
            metrics += fmt::format(
                "{}{}={:g}{}", metrics.empty() ? "" : " ", name, median_of(values),
                cell.metric_units.at(name).empty() ? "" : " " + cell.metric_units.at(name));
        }
        const int failed = cell.boots - cell.ok - cell.contaminated;
        std::string excluded = "-";
        if (failed > 0 || cell.contaminated > 0) {
            excluded = fmt::format("{}f {}l", failed, cell.contaminated);
        }
        out +=
            fmt::format("{:<{}}  {:>6}  {:>9}  {:>10}  {:>22}  {}\n", label(cell), width,
                        fmt::format("{}/{}", cell.ok, cell.boots), excluded, median, mean, metrics);
    }
    return out;
}

nlohmann::json run_summary_json(const std::vector<CellResult>& cells) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& cell : cells) {
        const Summary s = summarize(cell.boot_seconds);
        nlohmann::json metrics = nlohmann::json::object();
        for (const auto& [name, values] : cell.metrics) {
            metrics[name] = {{"median", median_of(values)},
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
