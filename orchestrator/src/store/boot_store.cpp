#include "store/boot_store.h"

#include "util/gzip.h"
#include "util/hash.h"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <type_traits>

namespace bb {

namespace {
template <class T>
void bind_optional(SQLite::Statement& statement, int index, const std::optional<T>& value) {
    if (value) {
        if constexpr (std::is_same_v<T, long long>) {
            statement.bind(index, static_cast<int64_t>(*value));
        } else {
            statement.bind(index, *value);
        }
    } else {
        statement.bind(index);
    }
}
} // namespace

std::string utc_now_iso8601() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[40];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
    return std::string(buffer) + "." + std::to_string(1000 + millis).substr(1) + "Z";
}

long long BootStore::ensure_host(const HostFacts& facts, const std::string& libvirt_uri) {
    auto& db = m_db.sql();
    SQLite::Statement insert(db, "INSERT INTO hosts (fingerprint, hostname, kernel_release, "
                                 "cpu_model, cpus, memory_bytes, libvirt_uri) VALUES (?, ?, ?, "
                                 "?, ?, ?, ?) ON CONFLICT (fingerprint) DO NOTHING");
    insert.bind(1, facts.fingerprint);
    insert.bind(2, facts.hostname);
    insert.bind(3, facts.kernel_release);
    insert.bind(4, facts.cpu_model);
    insert.bind(5, facts.cpus);
    insert.bind(6, static_cast<int64_t>(facts.memory_bytes));
    bind_optional(insert, 7, libvirt_uri.empty() ? std::nullopt : std::optional(libvirt_uri));
    insert.exec();
    SQLite::Statement select(db, "SELECT id FROM hosts WHERE fingerprint = ?");
    select.bind(1, facts.fingerprint);
    select.executeStep();
    return select.getColumn(0).getInt64();
}

long long BootStore::ensure_experiment(const std::string& name, const std::string& yaml) {
    const std::string hash = sha256_hex(yaml);
    SQLite::Statement insert(m_db.sql(), "INSERT INTO experiments (name, yaml, yaml_sha256) "
                                         "VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    insert.bind(1, name);
    insert.bind(2, yaml);
    insert.bind(3, hash);
    insert.exec();
    SQLite::Statement select(m_db.sql(),
                             "SELECT id FROM experiments WHERE name = ? AND yaml_sha256 = ?");
    select.bind(1, name);
    select.bind(2, hash);
    select.executeStep();
    return select.getColumn(0).getInt64();
}

namespace {
constexpr const char* k_stored_run_select =
    "SELECT r.id, coalesce(r.experiment_id, 0), coalesce(e.name, ''), "
    "coalesce(e.yaml_sha256, ''), coalesce(r.seed, 0), r.mode FROM runs r "
    "LEFT JOIN experiments e ON e.id = r.experiment_id ";

std::optional<StoredRun> read_stored_run(SQLite::Statement& select) {
    if (!select.executeStep()) {
        return std::nullopt;
    }
    return StoredRun{select.getColumn(0).getInt64(),  select.getColumn(1).getInt64(),
                     select.getColumn(2).getString(), select.getColumn(3).getString(),
                     select.getColumn(4).getInt64(),  select.getColumn(5).getString()};
}
} // namespace

std::optional<StoredRun> BootStore::find_run(const std::string& experiment_name, long long seed,
                                             const std::string& mode) {
    SQLite::Statement select(m_db.sql(), std::string(k_stored_run_select) +
                                             "WHERE e.name = ? AND r.seed = ? AND r.mode = ? "
                                             "ORDER BY r.id DESC LIMIT 1");
    select.bind(1, experiment_name);
    select.bind(2, static_cast<int64_t>(seed));
    select.bind(3, mode);
    return read_stored_run(select);
}

std::optional<StoredRun> BootStore::run_identity(long long run_id) {
    SQLite::Statement select(m_db.sql(), std::string(k_stored_run_select) + "WHERE r.id = ?");
    select.bind(1, static_cast<int64_t>(run_id));
    return read_stored_run(select);
}

std::vector<long long> BootStore::finished_nightlies(const std::string& experiment_name, int limit,
                                                     bool good_only) {
    SQLite::Statement select(m_db.sql(),
                             "SELECT r.id FROM runs r JOIN experiments e ON e.id = r.experiment_id "
                             "WHERE e.name = ? AND r.mode = 'nightly' AND r.status = ? AND "
                             "(NOT ? OR r.verdict = 'ok' OR EXISTS (SELECT 1 FROM run_tags t "
                             "WHERE t.run_id = r.id AND t.tag = 'accepted')) "
                             "ORDER BY r.id DESC LIMIT ?");
    select.bind(1, experiment_name);
    select.bind(2, std::string(to_string(RunStatus::Done)));
    select.bind(3, good_only ? 1 : 0);
    select.bind(4, limit);
    std::vector<long long> runs;
    while (select.executeStep()) {
        runs.push_back(select.getColumn(0).getInt64());
    }
    return runs;
}

void BootStore::set_nightly_verdict(long long run_id, const std::string& verdict,
                                    std::optional<long long> baseline_run_id) {
    SQLite::Statement update(m_db.sql(),
                             "UPDATE runs SET verdict = ?, baseline_run_id = ? WHERE id = ?");
    update.bind(1, verdict);
    bind_optional(update, 2, baseline_run_id);
    update.bind(3, static_cast<int64_t>(run_id));
    update.exec();
}

void BootStore::reopen_run(long long run_id) {
    SQLite::Statement update(m_db.sql(),
                             "UPDATE runs SET status = ?, finished_at = NULL WHERE id = ?");
    update.bind(1, std::string(to_string(RunStatus::Running)));
    update.bind(2, static_cast<int64_t>(run_id));
    update.exec();
}

std::set<std::pair<std::string, int>> BootStore::stored_samples(long long run_id) {
    SQLite::Statement select(m_db.sql(), "SELECT cell_key, repeat_index FROM boots WHERE run_id "
                                         "= ? AND outcome != 'infra-error'");
    select.bind(1, static_cast<int64_t>(run_id));
    std::set<std::pair<std::string, int>> samples;
    while (select.executeStep()) {
        samples.emplace(select.getColumn(0).getString(), select.getColumn(1).getInt());
    }
    return samples;
}

long long BootStore::begin_run(long long host_id, const RunStart& start) {
    SQLite::Statement insert(m_db.sql(),
                             "INSERT INTO runs (experiment_id, host_id, mode, seed, status, "
                             "command_line, tool_version, analysis_json) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    bind_optional(insert, 1, start.experiment_id);
    insert.bind(2, static_cast<int64_t>(host_id));
    insert.bind(3, start.mode);
    bind_optional(insert, 4, start.seed);
    insert.bind(5, std::string(to_string(RunStatus::Running)));
    insert.bind(6, start.command_line);
    insert.bind(7, tool_version());
    bind_optional(insert, 8, start.analysis_json);
    insert.exec();
    return m_db.sql().getLastInsertRowid();
}

std::optional<std::string> BootStore::run_analysis(long long run_id) {
    SQLite::Statement select(m_db.sql(), "SELECT analysis_json FROM runs WHERE id = ?");
    select.bind(1, static_cast<int64_t>(run_id));
    if (!select.executeStep() || select.getColumn(0).isNull()) {
        return std::nullopt;
    }
    return select.getColumn(0).getString();
}

void BootStore::record_cell_stop(long long run_id, const CellStop& stop) {
    SQLite::Statement insert(m_db.sql(), "INSERT OR REPLACE INTO run_cells (run_id, cell_key, "
                                         "repeats, stop_reason) VALUES (?, ?, ?, ?)");
    insert.bind(1, static_cast<int64_t>(run_id));
    insert.bind(2, stop.cell_key);
    insert.bind(3, stop.repeats);
    insert.bind(4, stop.reason);
    insert.exec();
}

std::vector<CellStop> BootStore::cell_stops(long long run_id) {
    SQLite::Statement select(m_db.sql(), "SELECT cell_key, repeats, stop_reason FROM run_cells "
                                         "WHERE run_id = ? ORDER BY cell_key");
    select.bind(1, static_cast<int64_t>(run_id));
    std::vector<CellStop> stops;
    while (select.executeStep()) {
        stops.push_back({select.getColumn(0).getString(), select.getColumn(1).getInt(),
                         select.getColumn(2).getString()});
    }
    return stops;
}

void BootStore::finish_run(long long run_id, RunStatus status) {
    SQLite::Statement update(m_db.sql(), "UPDATE runs SET status = ?, finished_at = "
                                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
    update.bind(1, std::string(to_string(status)));
    update.bind(2, static_cast<int64_t>(run_id));
    update.exec();
}

namespace {

// The boots row's columns, in the order of insert_boot's column list.
void bind_boot_columns(SQLite::Statement& insert, const BootRecord& boot,
                       const std::string& console_gz, std::optional<long long> conditions_id) {
    int i = 0;
    insert.bind(++i, static_cast<int64_t>(boot.run_id));
    insert.bind(++i, boot.cell_key);
    insert.bind(++i, boot.params_json);
    insert.bind(++i, boot.repeat_index);
    insert.bind(++i, boot.arch);
    insert.bind(++i, boot.machine);
    insert.bind(++i, boot.smp);
    insert.bind(++i, boot.memory_mb);
    insert.bind(++i, boot.kernel_path);
    insert.bind(++i, boot.kernel_sha256);
    bind_optional(insert, ++i, boot.build_key);
    bind_optional(insert, ++i, boot.initrd_path);
    bind_optional(insert, ++i, boot.initrd_sha256);
    bind_optional(insert, ++i, boot.firmware_name);
    bind_optional(insert, ++i, boot.firmware_sha256);
    insert.bind(++i, boot.cmdline);
    // A command line is bytes, not necessarily UTF-8 (`--append $'\xff'`): replace, never throw.
    insert.bind(++i, nlohmann::json(boot.argv).dump(-1, ' ', false,
                                                    nlohmann::json::error_handler_t::replace));
    insert.bind(++i, boot.accel);
    insert.bind(++i, boot.accel_reason);
    insert.bind(++i, boot.concurrency);
    bind_optional(insert, ++i, boot.foreign_load);
    insert.bind(++i, std::string(to_string(boot.outcome)));
    insert.bind(++i, boot.outcome_reason);
    bind_optional(insert, ++i, boot.boot_seconds);
    bind_optional(insert, ++i, boot.guest_marker_seconds);
    bind_optional(insert, ++i, boot.first_byte_seconds);
    bind_optional(insert, ++i, boot.banner_seconds);
    bind_optional(insert, ++i, boot.run_init_seconds);
    insert.bind(++i, boot.wall_seconds);
    bind_optional(insert, ++i, boot.exit_status);
    bind_optional(insert, ++i, boot.exit_signal);
    insert.bind(++i, static_cast<int64_t>(boot.console_bytes));
    insert.bind(++i, boot.console_tail);
    insert.bind(++i, console_gz.data(), static_cast<int>(console_gz.size()));
    insert.bind(++i, boot.started_at);
    bind_optional(insert, ++i, boot.host_id);
    insert.bind(++i, boot.launcher);
    bind_optional(insert, ++i,
                  boot.libvirt_uri.empty() ? std::nullopt : std::optional(boot.libvirt_uri));
    bind_optional(insert, ++i,
                  boot.domain_xml.empty() ? std::nullopt : std::optional(boot.domain_xml));
    bind_optional(insert, ++i, boot.params_not_applied);
    bind_optional(insert, ++i, boot.quiet_wait_seconds);
    bind_optional(insert, ++i, boot.load_before);
    bind_optional(insert, ++i,
                  boot.loaded ? std::optional<int>(*boot.loaded ? 1 : 0) : std::nullopt);
    insert.bind(++i, boot.timing_marker);
    insert.bind(++i, boot.start_marker);
    bind_optional(insert, ++i, conditions_id);
    bind_optional(insert, ++i, boot.initcall_trace);
    bind_optional(insert, ++i, boot.kernel_init_seconds);
}

// The id of a host-conditions object, stored the first time it is seen.
long long host_conditions_id(SQLite::Database& db, const std::string& facts_json) {
    SQLite::Statement insert(db, "INSERT OR IGNORE INTO host_conditions (facts_json) VALUES (?)");
    insert.bind(1, facts_json);
    insert.exec();
    SQLite::Statement select(db, "SELECT id FROM host_conditions WHERE facts_json = ?");
    select.bind(1, facts_json);
    select.executeStep();
    return select.getColumn(0).getInt64();
}

void insert_initcalls(SQLite::Database& db, long long boot_id,
                      const std::vector<InitcallRecord>& initcalls) {
    SQLite::Statement insert(db, "INSERT INTO boot_initcalls (boot_id, seq, name, module, "
                                 "start_seconds, duration_us, return_value) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?)");
    long long seq = 0;
    for (const auto& call : initcalls) {
        insert.bind(1, static_cast<int64_t>(boot_id));
        insert.bind(2, static_cast<int64_t>(seq++));
        insert.bind(3, call.name);
        insert.bind(4, call.module);
        insert.bind(5, call.start_s);
        insert.bind(6, static_cast<int64_t>(call.duration_us));
        insert.bind(7, call.return_value);
        insert.exec();
        insert.reset();
    }
}

// A boot's events, metrics, histogram buckets and initcalls, in the boot's transaction.
void insert_boot_details(SQLite::Database& db, long long boot_id, const BootRecord& boot) {
    SQLite::Statement event(db, "INSERT INTO boot_events (boot_id, host_seconds, guest_seconds, "
                                "kind, text) VALUES (?, ?, ?, ?, ?)");
    for (const auto& e : boot.events) {
        event.bind(1, static_cast<int64_t>(boot_id));
        event.bind(2, e.host_s);
        bind_optional(event, 3, e.guest_s);
        event.bind(4, std::string(to_string(e.kind)));
        event.bind(5, e.text);
        event.exec();
        event.reset();
    }
    SQLite::Statement metric(db, "INSERT INTO metrics (boot_id, name, value, unit, host_seconds) "
                                 "VALUES (?, ?, ?, ?, ?)");
    for (const auto& m : boot.metrics) {
        metric.bind(1, static_cast<int64_t>(boot_id));
        metric.bind(2, m.name);
        metric.bind(3, m.value);
        metric.bind(4, m.unit);
        metric.bind(5, m.host_s);
        metric.exec();
        metric.reset();
    }
    SQLite::Statement bucket(db, "INSERT INTO histograms (boot_id, name, lo, hi, count) "
                                 "VALUES (?, ?, ?, ?, ?)");
    for (const auto& h : boot.histograms) {
        bucket.bind(1, static_cast<int64_t>(boot_id));
        bucket.bind(2, h.name);
        bucket.bind(3, h.lo);
        bucket.bind(4, h.hi);
        bucket.bind(5, static_cast<int64_t>(h.count));
        bucket.exec();
        bucket.reset();
    }
    insert_initcalls(db, boot_id, boot.initcalls);
}

} // namespace

long long BootStore::insert_boot(const BootRecord& boot) {
    auto& db = m_db.sql();
    const std::string console_gz = gzip_compress(boot.console_log);
    SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement insert(
        db, "INSERT INTO boots (run_id, cell_key, params_json, repeat_index, arch, machine, smp, "
            "memory_mb, kernel_path, kernel_sha256, build_key, initrd_path, initrd_sha256, "
            "firmware_name, firmware_sha256, cmdline, argv_json, accel, accel_reason, "
            "concurrency, foreign_load, outcome, outcome_reason, boot_seconds, "
            "guest_marker_seconds, first_byte_seconds, banner_seconds, run_init_seconds, "
            "wall_seconds, exit_status, exit_signal, console_bytes, console_tail, console_gz, "
            "started_at, host_id, launcher, libvirt_uri, domain_xml, params_not_applied, "
            "quiet_wait_seconds, load_before, loaded, timing_marker, start_marker, "
            "host_conditions_id, initcall_trace, kernel_init_seconds) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const std::optional<long long> conditions_id =
        boot.host_conditions_json
            ? std::optional(host_conditions_id(db, *boot.host_conditions_json))
            : std::nullopt;
    bind_boot_columns(insert, boot, console_gz, conditions_id);
    try {
        insert.exec();
    } catch (const SQLite::Exception& e) {
        if (e.getExtendedErrorCode() == SQLITE_CONSTRAINT_UNIQUE) {
            throw SampleAlreadyStored(fmt::format("run {}: {} repeat {} is already stored",
                                                  boot.run_id, boot.cell_key, boot.repeat_index));
        }
        throw;
    }
    const long long boot_id = db.getLastInsertRowid();

    insert_boot_details(db, boot_id, boot);
    transaction.commit();
    return boot_id;
}

std::optional<AccelProbeRecord> BootStore::latest_accel_probe(long long host_id,
                                                              const std::string& arch,
                                                              const std::string& qemu_version) {
    SQLite::Statement select(m_db.sql(),
                             "SELECT kvm_works, reason, seconds, probed_at FROM accel_probes "
                             "WHERE host_id = ? AND arch = ? AND qemu_version = ? "
                             "ORDER BY id DESC LIMIT 1");
    select.bind(1, static_cast<int64_t>(host_id));
    select.bind(2, arch);
    select.bind(3, qemu_version);
    if (!select.executeStep()) {
        return std::nullopt;
    }
    return AccelProbeRecord{select.getColumn(0).getInt() != 0, select.getColumn(1).getString(),
                            select.getColumn(2).getDouble(), select.getColumn(3).getString()};
}

void BootStore::insert_accel_probe(long long host_id, const std::string& arch,
                                   const std::string& qemu_version, const AccelProbeRecord& probe) {
    SQLite::Statement insert(m_db.sql(),
                             "INSERT INTO accel_probes (host_id, arch, qemu_version, kvm_works, "
                             "reason, seconds) VALUES (?, ?, ?, ?, ?, ?)");
    insert.bind(1, static_cast<int64_t>(host_id));
    insert.bind(2, arch);
    insert.bind(3, qemu_version);
    insert.bind(4, probe.kvm_works ? 1 : 0);
    insert.bind(5, probe.reason);
    insert.bind(6, probe.seconds);
    insert.exec();
}

} // namespace bb
