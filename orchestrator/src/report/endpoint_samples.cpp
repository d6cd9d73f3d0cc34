#include "report/endpoint_samples.h"

#include "stats/geomean_endpoint.h"
#include "store/boot_params.h"
#include "store/metric_queries.h"
#include "store/sample_selection.h"
#include "util/error.h"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

namespace bb {

namespace {

using ItemValues = std::map<long long, std::map<std::string, double>>; // boot -> item -> value

// The endpoint's metric rows of the run: by name, or every `<prefix>.` item; a boot's value is
// the first it printed.
ItemValues metric_values(Database& db, long long run_id, const Endpoint& endpoint) {
    const auto rows = endpoint.kind == EndpointKind::Geomean
                          ? run_metric_items(db, run_id, endpoint.name + ".")
                          : run_metric(db, run_id, endpoint.name);
    ItemValues values;
    for (const auto& row : rows) {
        values[row.boot_id].try_emplace(row.name, row.value);
    }
    if (endpoint.kind == EndpointKind::Metric && rows.empty()) {
        // No guest printed it: a timing column of the boot (guest_marker_seconds, …), read as
        // `report --metric` reads it; a name that is neither stays without values.
        SampleQuery query;
        query.run_ids = {run_id};
        query.metric = endpoint.name;
        query.include_failed = true; // the verdict applies the used rule itself
        query.include_loaded = true;
        try {
            for (const auto& boot : select_samples(db, query).boots) {
                if (boot.value) {
                    values[boot.boot_id].try_emplace(endpoint.name, *boot.value);
                }
            }
        } catch (const Error&) {
        }
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
    const ItemValues metrics = endpoint.kind == EndpointKind::BootSeconds
                                   ? ItemValues{}
                                   : metric_values(db, run_id, endpoint);
    std::vector<std::pair<long long, EndpointBoot>> boots;
    std::set<std::string> item_set;
    for (const auto& sample : run_boots(db, run_id)) {
        if (sample.outcome == "infra-error" || (!cell_key.empty() && sample.cell_key != cell_key)) {
            continue;
        }
        EndpointBoot boot;
        boot.cell_key = sample.cell_key;
        // A boot whose cell cannot be known is an error: the verdict would have left it out
        // unsaid (issue 32, item 10: "left out … 0" with a boot missing).
        boot.params = require_boot_params(sample.params_json, sample.boot_id);
        boot.round = sample.repeat_index;
        boot.used = sample.used;
        boot.wall_seconds = sample.wall_seconds;
        if (endpoint.kind == EndpointKind::BootSeconds) {
            boot.value = sample.value;
        }
        if (const auto found = metrics.find(sample.boot_id); found != metrics.end()) {
            if (endpoint.kind == EndpointKind::Metric) {
                boot.value = found->second.begin()->second;
            }
            for (const auto& [item, value] : found->second) {
                item_set.insert(boot.used ? item : "");
            }
        }
        boots.emplace_back(sample.boot_id, std::move(boot));
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
