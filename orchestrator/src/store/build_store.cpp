#include "store/build_store.h"

#include "util/error.h"

#include <fmt/format.h>

namespace bb {

namespace {
constexpr const char* k_columns =
    "key, arch, source_identity, patches_json, base_config, fragments_json, hz, preempt, "
    "config_sha256, toolchain, target, artifact_dir, image_sha256, image_bytes, build_seconds, "
    "explain, created_at, last_used_at";

BuildRow row_from(SQLite::Statement& s) {
    BuildRow row;
    int i = 0;
    row.key = s.getColumn(i++).getString();
    row.arch = s.getColumn(i++).getString();
    row.source_identity = s.getColumn(i++).getString();
    row.patches_json = s.getColumn(i++).getString();
    row.base_config = s.getColumn(i++).getString();
    row.fragments_json = s.getColumn(i++).getString();
    if (!s.getColumn(i).isNull()) {
        row.hz = s.getColumn(i).getInt();
    }
    ++i;
    if (!s.getColumn(i).isNull()) {
        row.preempt = s.getColumn(i).getString();
    }
    ++i;
    row.config_sha256 = s.getColumn(i++).getString();
    row.toolchain = s.getColumn(i++).getString();
    row.target = s.getColumn(i++).getString();
    row.artifact_dir = s.getColumn(i++).getString();
    row.image_sha256 = s.getColumn(i++).getString();
    row.image_bytes = s.getColumn(i++).getInt64();
    row.build_seconds = s.getColumn(i++).getDouble();
    row.explain = s.getColumn(i++).getString();
    row.created_at = s.getColumn(i++).getString();
    row.last_used_at = s.getColumn(i++).getString();
    return row;
}
} // namespace

void BuildStore::record(const BuildRow& row) {
    SQLite::Statement insert(
        m_db.sql(), fmt::format("INSERT OR REPLACE INTO builds ({}) VALUES (?, ?, ?, ?, ?, ?, ?, "
                                "?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', "
                                "'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                                k_columns));
    int i = 0;
    insert.bind(++i, row.key);
    insert.bind(++i, row.arch);
    insert.bind(++i, row.source_identity);
    insert.bind(++i, row.patches_json);
    insert.bind(++i, row.base_config);
    insert.bind(++i, row.fragments_json);
    if (row.hz) {
        insert.bind(++i, *row.hz);
    } else {
        insert.bind(++i);
    }
    if (row.preempt) {
        insert.bind(++i, *row.preempt);
    } else {
        insert.bind(++i);
    }
    insert.bind(++i, row.config_sha256);
    insert.bind(++i, row.toolchain);
    insert.bind(++i, row.target);
    insert.bind(++i, row.artifact_dir);
    insert.bind(++i, row.image_sha256);
    insert.bind(++i, static_cast<int64_t>(row.image_bytes));
    insert.bind(++i, row.build_seconds);
    insert.bind(++i, row.explain);
    insert.exec();
}

void BuildStore::touch(const std::string& key) {
    SQLite::Statement update(m_db.sql(), "UPDATE builds SET last_used_at = "
                                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE key = ?");
    update.bind(1, key);
    update.exec();
}

std::vector<BuildRow> BuildStore::list() {
    SQLite::Statement select(m_db.sql(), fmt::format("SELECT {} FROM builds ORDER BY "
                                                     "last_used_at DESC",
                                                     k_columns));
    std::vector<BuildRow> rows;
    while (select.executeStep()) {
        rows.push_back(row_from(select));
    }
    return rows;
}

std::optional<BuildRow> BuildStore::find(const std::string& key_or_prefix) {
    if (key_or_prefix.size() < 6) {
        throw Error("build key '" + key_or_prefix + "' is too short: give at least 6 characters");
    }
    SQLite::Statement select(m_db.sql(), fmt::format("SELECT {} FROM builds WHERE key LIKE ? "
                                                     "ESCAPE '\\' LIMIT 2",
                                                     k_columns));
    std::string pattern;
    for (char c : key_or_prefix) {
        if (c == '%' || c == '_' || c == '\\') {
            pattern += '\\';
        }
        pattern += c;
    }
    select.bind(1, pattern + "%");
    std::vector<BuildRow> rows;
    while (select.executeStep()) {
        rows.push_back(row_from(select));
    }
    if (rows.size() > 1) {
        throw Error("build key prefix '" + key_or_prefix + "' is ambiguous: give more characters");
    }
    if (rows.empty()) {
        return std::nullopt;
    }
    return rows.front();
}

void BuildStore::remove(const std::string& key) {
    SQLite::Statement del(m_db.sql(), "DELETE FROM builds WHERE key = ?");
    del.bind(1, key);
    del.exec();
}

} // namespace bb
