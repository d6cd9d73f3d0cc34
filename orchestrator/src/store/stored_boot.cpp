#include "store/stored_boot.h"

#include "util/error.h"
#include "util/gzip.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bb {

namespace {
std::optional<std::string> optional_text(const SQLite::Column& column) {
    return column.isNull() ? std::nullopt : std::optional(column.getString());
}

std::optional<double> optional_real(const SQLite::Column& column) {
    return column.isNull() ? std::nullopt : std::optional(column.getDouble());
}

BootOutcome stored_outcome(long long boot_id, const std::string& text) {
    if (const auto outcome = boot_outcome_from_string(text)) {
        return *outcome;
    }
    throw Error(
        fmt::format("boot {}: stored outcome '{}' is not one this bootbench knows", boot_id, text));
}
// boots.argv_json: a JSON list of strings. A damaged row is a clear error (exit 2), not a JSON
// exception (exit 70).
std::vector<std::string> stored_argv(long long boot_id, const std::string& text) {
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    const bool strings =
        parsed.is_array() &&
        std::all_of(parsed.begin(), parsed.end(), [](const auto& v) { return v.is_string(); });
    if (!strings || parsed.empty()) {
        throw Error(fmt::format("boot {}: its stored qemu argv (boots.argv_json) is not a "
                                "non-empty list of strings; the database is damaged: {}",
                                boot_id, text.substr(0, 80)));
    }
    return parsed.get<std::vector<std::string>>();
}
} // namespace

std::optional<StoredBoot> find_stored_boot(Database& db, long long boot_id) {
    SQLite::Statement select(
        db.sql(), "SELECT b.id, b.run_id, coalesce(e.name, ''), b.cell_key, b.repeat_index, "
                  "b.arch, b.kernel_path, b.kernel_sha256, b.build_key, b.initrd_path, "
                  "b.initrd_sha256, b.firmware_name, b.firmware_sha256, b.argv_json, b.launcher, "
                  "b.outcome, b.boot_seconds, b.timing_marker, b.start_marker, b.foreign_load, "
                  "b.started_at, b.console_gz "
                  "FROM boots b JOIN runs r ON r.id = b.run_id "
                  "LEFT JOIN experiments e ON e.id = r.experiment_id WHERE b.id = ?");
    select.bind(1, static_cast<int64_t>(boot_id));
    if (!select.executeStep()) {
        return std::nullopt;
    }
    StoredBoot stored;
    BootRecord& boot = stored.record;
    int i = 0;
    stored.id = select.getColumn(i++).getInt64();
    boot.run_id = select.getColumn(i++).getInt64();
    stored.experiment = select.getColumn(i++).getString();
    boot.cell_key = select.getColumn(i++).getString();
    boot.repeat_index = select.getColumn(i++).getInt();
    boot.arch = select.getColumn(i++).getString();
    boot.kernel_path = select.getColumn(i++).getString();
    boot.kernel_sha256 = select.getColumn(i++).getString();
    boot.build_key = optional_text(select.getColumn(i++));
    boot.initrd_path = optional_text(select.getColumn(i++));
    boot.initrd_sha256 = optional_text(select.getColumn(i++));
    boot.firmware_name = optional_text(select.getColumn(i++));
    boot.firmware_sha256 = optional_text(select.getColumn(i++));
    boot.argv = stored_argv(boot_id, select.getColumn(i++).getString());
    boot.launcher = select.getColumn(i++).getString();
    boot.outcome = stored_outcome(boot_id, select.getColumn(i++).getString());
    boot.boot_seconds = optional_real(select.getColumn(i++));
    const auto timing_marker = optional_text(select.getColumn(i++));
    const auto start_marker = optional_text(select.getColumn(i++));
    // Schema 10 writes both markers; NULL is a boot stored before it (0010_timing_marker.sql).
    stored.markers_recorded = timing_marker.has_value();
    boot.timing_marker = timing_marker.value_or("");
    boot.start_marker = start_marker.value_or("");
    boot.foreign_load = optional_real(select.getColumn(i++));
    boot.started_at = select.getColumn(i++).getString();
    const SQLite::Column console = select.getColumn(i++);
    if (!console.isNull()) {
        boot.console_log = gzip_decompress(std::string_view(
            static_cast<const char*>(console.getBlob()), static_cast<size_t>(console.getBytes())));
    }
    return stored;
}

} // namespace bb
