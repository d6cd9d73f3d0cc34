#include "store/night_queries.h"

#include "store/patch_labels.h"
#include "store/run_queries.h"
#include "store/sql_binding.h"
#include "util/did_you_mean.h"
#include "util/error.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

namespace bb {

std::vector<NightRun> nightly_runs(Database& db, const std::string& experiment) {
    SQLite::Statement select(db.sql(), "SELECT r.id, r.started_at, r.status FROM runs r JOIN "
                                       "experiments e ON e.id = r.experiment_id WHERE e.name = ? "
                                       "AND r.mode = 'nightly' AND r.status <> 'running' "
                                       "ORDER BY r.started_at, r.id");
    select.bind(1, experiment);
    std::vector<NightRun> nights;
    while (select.executeStep()) {
        nights.push_back({select.getColumn(0).getInt64(), select.getColumn(1).getString(),
                          select.getColumn(2).getString()});
    }
    if (nights.empty()) {
        const std::vector<std::string> known = experiments_newest_first(db);
        bool held = false;
        for (const auto& name : known) {
            held = held || name == experiment;
        }
        if (!held) {
            throw Error(fmt::format("no experiment '{}' in {}{} ({})", experiment,
                                    db.path().string(), did_you_mean_note(experiment, known),
                                    known.empty()
                                        ? std::string("it holds no experiment's runs")
                                        : fmt::format("experiments: {}", fmt::join(known, ", "))));
        }
    }
    return nights;
}

namespace {

// builds.patches_json → "a.patch (\"[PATCH] subject\"), b.patch"; "none" for an empty series.
// A label prints as itself, not as a JSON string; a damaged list as the text stored.
std::string patch_names(const std::string& patches_json) {
    const auto labels = read_patch_labels(patches_json);
    if (!labels) {
        return patches_json;
    }
    return labels->empty() ? "none" : fmt::format("{}", fmt::join(*labels, ", "));
}

// The distinct values a part took on one night, in the order first seen.
struct Parts {
    std::vector<std::vector<std::string>> values = std::vector<std::vector<std::string>>(8);

    void add(size_t part, const std::string& value) {
        auto& seen = values[part];
        if (!value.empty() && std::find(seen.begin(), seen.end(), value) == seen.end()) {
            seen.push_back(value);
        }
    }
    std::string joined(size_t part) const {
        return fmt::format("{}", fmt::join(values[part], ", "));
    }
};

// The boot's host conditions (schema 12); a database written before has none.
std::string conditions_column(Database& db) {
    return db.schema_version() >= 12 ? "coalesce((SELECT c.facts_json FROM host_conditions c "
                                       "WHERE c.id = b.host_conditions_id), '')"
                                     : "''";
}

} // namespace

std::vector<NightInputs> night_inputs(Database& db, const std::vector<long long>& run_ids) {
    if (run_ids.empty()) {
        return {};
    }
    // The qemu version is not stored with a boot; the KVM probe (accel_probes) records it per
    // host and guest arch, so a night's is that of the host's newest probe up to the boot.
    SQLite::Statement select(
        db.sql(),
        "SELECT DISTINCT s.run_id, s.cell_key, coalesce(b.build_key, ''), "
        "coalesce(bd.source_identity, ''), bd.patches_json, coalesce(bd.config_sha256, ''), "
        "coalesce((SELECT p.qemu_version FROM accel_probes p WHERE p.host_id = h.id AND "
        "p.arch = b.arch AND p.probed_at <= b.started_at ORDER BY p.probed_at DESC, p.id DESC "
        "LIMIT 1), ''), "
        "CASE WHEN b.firmware_name IS NULL THEN '' ELSE b.firmware_name || "
        "coalesce(' ' || substr(b.firmware_sha256, 1, 12), '') END, "
        "h.hostname || ' (' || h.kernel_release || ', ' || h.cpus || ' × ' || h.cpu_model || "
        "')', " +
            conditions_column(db) +
            " FROM v_samples s JOIN boots b ON b.id = s.boot_id JOIN runs r ON r.id = b.run_id "
            "JOIN hosts h ON h.id = coalesce(b.host_id, r.host_id) "
            "LEFT JOIN builds bd ON bd.key = b.build_key "
            "WHERE s.used AND s.run_id IN (" +
            sql_placeholders(run_ids.size()) + ") ORDER BY s.run_id, s.cell_key, b.id");
    bind_all(select, std::vector<SqlBinding>(run_ids.begin(), run_ids.end()));
    std::map<std::pair<long long, std::string>, Parts> nights;
    while (select.executeStep()) {
        Parts& parts = nights[{select.getColumn(0).getInt64(), select.getColumn(1).getString()}];
        parts.add(0, select.getColumn(2).getString());
        parts.add(1, select.getColumn(3).getString());
        if (!select.getColumn(4).isNull()) {
            parts.add(2, patch_names(select.getColumn(4).getString()));
        }
        for (int part = 3; part < 8; ++part) {
            parts.add(static_cast<size_t>(part), select.getColumn(part + 2).getString());
        }
    }
    std::vector<NightInputs> inputs;
    for (const auto& [key, parts] : nights) {
        inputs.push_back({key.first, key.second, parts.joined(0), parts.joined(1), parts.joined(2),
                          parts.joined(3), parts.joined(4), parts.joined(5), parts.joined(6),
                          parts.values[7]});
    }
    return inputs;
}

} // namespace bb
