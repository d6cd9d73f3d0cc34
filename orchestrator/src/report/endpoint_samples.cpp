#include "report/endpoint_samples.h"

#include "stats/geomean_endpoint.h"

#include <cmath>
#include <map>
#include <set>

namespace bb {

namespace {

using ItemValues = std::map<long long, std::map<std::string, double>>; // boot -> item -> value

// The endpoint's metric rows of the run: by name, or every `<prefix>.` item.
ItemValues metric_values(Database& db, long long run_id, const Endpoint& endpoint) {
    const bool items = endpoint.kind == EndpointKind::Geomean;
    SQLite::Statement select(
        db.sql(), items ? "SELECT m.boot_id, m.name, m.value FROM metrics m JOIN boots b "
                          "ON b.id = m.boot_id WHERE b.run_id = ? AND "
                          "substr(m.name, 1, length(?2)) = ?2"
                        : "SELECT m.boot_id, m.name, m.value FROM metrics m JOIN boots b "
                          "ON b.id = m.boot_id WHERE b.run_id = ? AND m.name = ?2");
    select.bind(1, static_cast<int64_t>(run_id));
    select.bind(2, items ? endpoint.name + "." : endpoint.name);
    ItemValues values;
    while (select.executeStep()) {
        values[select.getColumn(0).getInt64()][select.getColumn(1).getString()] =
            select.getColumn(2).getDouble();
    }
    return values;
}

std::optional<double> geomean_of(const std::map<std::string, double>& items,
                                 const std::set<std::string>& item_set) {
    std::vector<double> values;
    for (const auto& name : item_set) {
        const auto found = items.find(name);
        if (found == items.end()) {
            return std::nullopt;
        }
        values.push_back(found->second);
    }
    const double geomean = stats::boot_geomean(values);
    return std::isfinite(geomean) ? std::optional(geomean) : std::nullopt;
}

} // namespace

std::vector<EndpointBoot> endpoint_boots(Database& db, long long run_id, const Endpoint& endpoint,
                                         const std::string& cell_key) {
    SQLite::Statement select(db.sql(),
                             "SELECT boot_id, cell_key, params_json, repeat_index, used, "
                             "boot_seconds, wall_seconds FROM v_samples WHERE run_id = ?1 AND "
                             "outcome != 'infra-error' AND (?2 = '' OR cell_key = ?2) "
                             "ORDER BY boot_id");
    select.bind(1, static_cast<int64_t>(run_id));
    select.bind(2, cell_key);
    const ItemValues metrics = endpoint.kind == EndpointKind::BootSeconds
                                   ? ItemValues{}
                                   : metric_values(db, run_id, endpoint);
    std::vector<std::pair<long long, EndpointBoot>> boots;
    std::set<std::string> item_set;
    while (select.executeStep()) {
        EndpointBoot boot;
        const long long id = select.getColumn(0).getInt64();
        boot.cell_key = select.getColumn(1).getString();
        boot.params = nlohmann::json::parse(select.getColumn(2).getString(), nullptr, false);
        boot.round = select.getColumn(3).getInt();
        boot.used = select.getColumn(4).getInt() != 0;
        boot.wall_seconds = select.getColumn(6).isNull() ? 0 : select.getColumn(6).getDouble();
        if (endpoint.kind == EndpointKind::BootSeconds && !select.getColumn(5).isNull()) {
            boot.value = select.getColumn(5).getDouble();
        }
        if (const auto found = metrics.find(id); found != metrics.end()) {
            if (endpoint.kind == EndpointKind::Metric) {
                boot.value = found->second.begin()->second;
            }
            for (const auto& [item, value] : found->second) {
                item_set.insert(boot.used ? item : "");
            }
        }
        boots.emplace_back(id, std::move(boot));
    }
    item_set.erase("");
    std::vector<EndpointBoot> result;
    for (auto& [id, boot] : boots) {
        if (endpoint.kind == EndpointKind::Geomean && metrics.count(id) != 0) {
            boot.value = geomean_of(metrics.at(id), item_set);
        }
        result.push_back(std::move(boot));
    }
    return result;
}

std::vector<double> used_values(const std::vector<EndpointBoot>& boots) {
    std::vector<double> values;
    for (const auto& boot : boots) {
        if (boot.used && boot.value) {
            values.push_back(*boot.value);
        }
    }
    return values;
}

} // namespace bb
