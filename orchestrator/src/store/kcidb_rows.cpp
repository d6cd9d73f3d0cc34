#include "store/kcidb_rows.h"

#include "store/run_queries.h"
#include "store/sql_binding.h"

#include <set>

namespace bb {

namespace {

// The boot's own host on a fleet, else the run's; loaded and used as v_samples defines them.
constexpr const char* k_boots_sql =
    "SELECT b.id, b.run_id, coalesce(e.name, ''), r.mode, r.started_at, h.fingerprint, "
    "h.hostname, b.cell_key, b.params_json, b.repeat_index, b.arch, b.machine, b.smp, "
    "b.memory_mb, b.kernel_sha256, b.build_key, coalesce(b.firmware_name, ''), b.cmdline, "
    "b.accel, b.launcher, b.outcome, b.outcome_reason, b.boot_seconds, "
    "b.guest_marker_seconds, b.first_byte_seconds, b.banner_seconds, b.run_init_seconds, "
    "b.wall_seconds, b.foreign_load, s.loaded, s.used, b.params_not_applied, b.console_tail, "
    "b.started_at, coalesce(b.timing_marker, ''), coalesce(b.start_marker, '') "
    "FROM boots b JOIN runs r ON r.id = b.run_id JOIN v_samples s ON s.boot_id = b.id "
    "LEFT JOIN experiments e ON e.id = r.experiment_id "
    "JOIN hosts h ON h.id = coalesce(b.host_id, r.host_id)";

std::optional<double> optional_real(const SQLite::Column& column) {
    if (column.isNull()) {
        return std::nullopt;
    }
    return column.getDouble();
}

std::optional<std::string> optional_text(const SQLite::Column& column) {
    if (column.isNull()) {
        return std::nullopt;
    }
    return column.getString();
}

KcidbBootRow boot_identity(SQLite::Statement& row) {
    KcidbBootRow boot;
    boot.id = row.getColumn(0).getInt64();
    boot.run_id = row.getColumn(1).getInt64();
    boot.experiment = row.getColumn(2).getString();
    boot.run_mode = row.getColumn(3).getString();
    boot.run_started_at = row.getColumn(4).getString();
    boot.host_fingerprint = row.getColumn(5).getString();
    boot.host_name = row.getColumn(6).getString();
    boot.cell_key = row.getColumn(7).getString();
    boot.params_json = row.getColumn(8).getString();
    boot.repeat_index = row.getColumn(9).getInt();
    boot.arch = row.getColumn(10).getString();
    boot.machine = row.getColumn(11).getString();
    boot.smp = row.getColumn(12).getInt();
    boot.memory_mb = row.getColumn(13).getInt();
    boot.kernel_sha256 = row.getColumn(14).getString();
    boot.build_key = optional_text(row.getColumn(15));
    boot.firmware_name = row.getColumn(16).getString();
    boot.cmdline = row.getColumn(17).getString();
    boot.accel = row.getColumn(18).getString();
    boot.launcher = row.getColumn(19).getString();
    return boot;
}

void read_results(SQLite::Statement& row, KcidbBootRow& boot) {
    boot.outcome = row.getColumn(20).getString();
    boot.outcome_reason = row.getColumn(21).getString();
    boot.boot_seconds = optional_real(row.getColumn(22));
    boot.guest_marker_seconds = optional_real(row.getColumn(23));
    boot.first_byte_seconds = optional_real(row.getColumn(24));
    boot.banner_seconds = optional_real(row.getColumn(25));
    boot.run_init_seconds = optional_real(row.getColumn(26));
    boot.wall_seconds = optional_real(row.getColumn(27));
    boot.foreign_load = optional_real(row.getColumn(28));
    boot.loaded = row.getColumn(29).getInt() != 0;
    boot.used = row.getColumn(30).getInt() != 0;
    boot.params_not_applied = optional_text(row.getColumn(31));
    boot.console_tail = row.getColumn(32).getString();
    boot.started_at = row.getColumn(33).getString();
    boot.timing_marker = row.getColumn(34).getString();
    boot.start_marker = row.getColumn(35).getString();
}

std::vector<KcidbMetric> boot_metrics(Database& db, long long boot_id) {
    SQLite::Statement select(db.sql(),
                             "SELECT name, value, unit FROM metrics WHERE boot_id = ? ORDER BY id");
    select.bind(1, static_cast<int64_t>(boot_id));
    std::vector<KcidbMetric> metrics;
    while (select.executeStep()) {
        metrics.push_back({select.getColumn(0).getString(), select.getColumn(1).getDouble(),
                           select.getColumn(2).getString()});
    }
    return metrics;
}

std::vector<BuildRow> named_builds(Database& db, const std::vector<KcidbBootRow>& boots) {
    std::set<std::string> keys;
    for (const auto& boot : boots) {
        if (boot.build_key) {
            keys.insert(*boot.build_key);
        }
    }
    BuildStore store(db);
    std::vector<BuildRow> builds;
    for (const auto& key : keys) {
        // find() takes a prefix: only the row of exactly this key is this boot's build.
        const auto row = key.size() >= 6 ? store.find(key) : std::nullopt;
        if (row && row->key == key) {
            builds.push_back(*row);
        }
    }
    return builds;
}

} // namespace

KcidbRows read_kcidb_rows(Database& db, const std::vector<long long>& run_ids) {
    require_runs(db, run_ids);
    std::string sql = k_boots_sql;
    if (!run_ids.empty()) {
        sql += " WHERE b.run_id IN (" + sql_placeholders(run_ids.size()) + ")";
    }
    SQLite::Statement select(db.sql(), sql + " ORDER BY b.run_id, b.id");
    bind_all(select, std::vector<SqlBinding>(run_ids.begin(), run_ids.end()));
    KcidbRows rows;
    while (select.executeStep()) {
        KcidbBootRow boot = boot_identity(select);
        read_results(select, boot);
        rows.boots.push_back(std::move(boot));
    }
    for (auto& boot : rows.boots) {
        boot.metrics = boot_metrics(db, boot.id);
    }
    rows.builds = named_builds(db, rows.boots);
    return rows;
}

} // namespace bb
