#include "store/database.h"

#include "store/migrations.h"
#include "util/error.h"

#include <fmt/format.h>

#include <cstdlib>

namespace bb {

namespace fs = std::filesystem;

namespace {
// How long a writer waits for another process's write lock before its statement fails.
// BOOTBENCH_BUSY_TIMEOUT (seconds) shortens it, e.g. to test what a run does when it fails.
int busy_timeout_ms() {
    if (const char* env = std::getenv("BOOTBENCH_BUSY_TIMEOUT"); env && *env) {
        char* end = nullptr;
        const double seconds = std::strtod(env, &end);
        if (*end != '\0' || !(seconds >= 0) || seconds > 86'400) {
            throw Error(fmt::format("BOOTBENCH_BUSY_TIMEOUT={}: expected seconds (0 to 86400)",
                                    env));
        }
        return static_cast<int>(seconds * 1000);
    }
    return 60'000;
}
} // namespace

Database::Database(const fs::path& path, Mode mode) : m_path(path) {
    try {
        if (mode == Mode::ReadWrite) {
            if (path.has_parent_path()) {
                std::error_code ec;
                fs::create_directories(path.parent_path(), ec);
            }
            m_db = std::make_unique<SQLite::Database>(
                path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, busy_timeout_ms());
            m_db->exec("PRAGMA journal_mode = WAL");
            m_db->exec("PRAGMA synchronous = NORMAL");
        } else {
            if (!fs::exists(path)) {
                throw Error(fmt::format("no database at {} (run a boot first, or pass --db)",
                                        path.string()));
            }
            m_db = std::make_unique<SQLite::Database>(path.string(), SQLite::OPEN_READONLY,
                                                      busy_timeout_ms());
        }
        m_db->exec("PRAGMA foreign_keys = ON");
    } catch (const SQLite::Exception& e) {
        throw Error(fmt::format("cannot open database {}: {}", path.string(), e.what()));
    }
    if (mode == Mode::ReadWrite) {
        try {
            migrate(*m_db, bundled_migrations(), path.string());
        } catch (const SQLite::Exception& e) {
            throw Error(fmt::format("cannot write database {}: {} (is the path read-only?)",
                                    path.string(), e.what()));
        }
    } else {
        int version = 0;
        try {
            version = schema_version(); // SQLite reads the file only now
        } catch (const SQLite::Exception& e) {
            throw Error(fmt::format("cannot read database {}: {} (is it a bootbench database?)",
                                    path.string(), e.what()));
        }
        if (version > latest_schema_version(bundled_migrations())) {
            throw Error(fmt::format("database {} has schema version {}, newer than this "
                                    "bootbench understands ({})",
                                    path.string(), version,
                                    latest_schema_version(bundled_migrations())));
        }
    }
}

int Database::schema_version() { return m_db->execAndGet("PRAGMA user_version").getInt(); }

} // namespace bb
