#include "store/database.h"

#include "store/database_error.h"
#include "store/migrations.h"
#include "store/view_check.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/shell_quote.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <sqlite3.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

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
            throw Error(
                fmt::format("BOOTBENCH_BUSY_TIMEOUT={}: expected seconds (0 to 86400)", env));
        }
        return static_cast<int>(seconds * 1000);
    }
    return 60'000;
}

// A path as a file: URI's path: every byte outside the unreserved set percent-encoded.
std::string uri_path(const std::string& path) {
    std::string out;
    for (const char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) != 0 || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            out += fmt::format("%{:02X}", byte);
        }
    }
    return out;
}

// Tables of the first migration: a database holding them is bootbench's.
constexpr std::array k_own_tables = {"hosts", "runs", "boots"};

// Writing commands run as root on shared hosts: a link or device node planted at the database's
// name would have SQLite create, truncate or journal whatever it points to. The directories
// above the file may be links (resolved on purpose); the file itself must be a regular file or
// absent.
void check_writable_database_path(const fs::path& path) {
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (status.type() == fs::file_type::symlink) {
        throw Error(fmt::format("database {} is a symbolic link (to {}); bootbench does not write "
                                "through links: pass the real path with --db",
                                path.string(), fs::read_symlink(path, ec).string()));
    }
    if (status.type() != fs::file_type::not_found && status.type() != fs::file_type::regular) {
        throw Error(fmt::format("database {} is not a regular file; pass the path of a bootbench "
                                "database or of a new file with --db",
                                path.string()));
    }
}

// The path SQLite is given: the directories resolved, so SQLITE_OPEN_NOFOLLOW (which refuses a
// link anywhere in the path) only refuses a link planted at the file's own name after the check.
fs::path resolved_database_path(const fs::path& path) {
    const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    fs::create_directories(parent, ec);
    const fs::path real_parent = fs::canonical(parent, ec);
    return ec ? path : real_parent / path.filename();
}

std::vector<std::string> schema_object_names(SQLite::Database& db) {
    SQLite::Statement query(db, "SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' "
                                "ORDER BY name");
    std::vector<std::string> names;
    while (query.executeStep()) {
        names.push_back(query.getColumn(0).getString());
    }
    return names;
}

// Migrating someone else's SQLite file would add our tables to it and switch it to WAL; only a
// new (empty) database or one of ours is written. Runs before the first write.
void refuse_foreign_database(SQLite::Database& db, const fs::path& path) {
    std::vector<std::string> names;
    int version = 0;
    try {
        // One snapshot: another process may be migrating the new file meanwhile, and a version
        // read after its commit with names read before it looks like a foreign database.
        SQLite::Transaction snapshot(db, SQLite::TransactionBehavior::DEFERRED);
        names = schema_object_names(db); // SQLite reads the file only now
        version = db.execAndGet("PRAGMA user_version").getInt();
    } catch (const SQLite::Exception& e) {
        throw_database_error(e, "cannot read database " + path.string(),
                             "is it a bootbench database?");
    }
    const bool has_own_tables = std::all_of(k_own_tables.begin(), k_own_tables.end(), [&](auto t) {
        return std::find(names.begin(), names.end(), t) != names.end();
    });
    if ((names.empty() && version == 0) || (version > 0 && has_own_tables)) {
        return;
    }
    std::string listed;
    for (size_t i = 0; i < names.size() && i < 5; ++i) {
        listed += (i == 0 ? "" : ", ") + names[i];
    }
    if (names.size() > 5) {
        listed += fmt::format(", … ({} in all)", names.size());
    }
    throw Error(fmt::format("database {} is not a bootbench database (schema version {}, "
                            "holds: {}); it was left unchanged: pass --db with a bootbench "
                            "database or the path of a new file",
                            path.string(), version, listed.empty() ? "nothing" : listed));
}

// SQLite takes the exclusive lock for switching a database to WAL without asking the busy
// handler, so a second process opening a fresh database at that moment gets "database is locked"
// at once (found by reliability.concurrent_writers in CI). The switch is retried for as long as
// any other write would wait; a database already in WAL needs no lock at all.
void switch_to_wal(SQLite::Database& db, int timeout_ms) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        try {
            if (db.execAndGet("PRAGMA journal_mode").getString() != "wal") {
                db.exec("PRAGMA journal_mode = WAL");
            }
            return;
        } catch (const SQLite::Exception& e) {
            if ((e.getErrorCode() & 0xff) != SQLITE_BUSY || clock::now() >= deadline) {
                throw;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
}
// A WAL database needs its -shm file to be read; SQLite creates it beside the file, which fails
// in a directory the reader cannot write (a shared results directory, a read-only mount):
// `report` said the file was unreadable (issue 32, item 9). When the directory is not writable
// and no -wal file holds uncheckpointed pages, the file is read as immutable: with no -wal,
// everything is in the file itself, and no writer can add one in a directory nobody here can
// write to.
std::unique_ptr<SQLite::Database> open_for_reading(const fs::path& path) {
    try {
        auto db = std::make_unique<SQLite::Database>(path.string(), SQLite::OPEN_READONLY,
                                                     busy_timeout_ms());
        db->execAndGet("PRAGMA user_version"); // SQLite opens the -shm only now
        return db;
    } catch (const SQLite::Exception&) {
        const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
        std::error_code ec;
        const bool wal_pending =
            fs::exists(path.string() + "-wal", ec) && fs::file_size(path.string() + "-wal", ec) > 0;
        if (access(dir.c_str(), W_OK) == 0 || wal_pending) {
            throw;
        }
    }
    return std::make_unique<SQLite::Database>(
        "file:" + uri_path(fs::absolute(path).string()) + "?immutable=1",
        SQLite::OPEN_READONLY | SQLite::OPEN_URI, busy_timeout_ms());
}
} // namespace

namespace {
// The oldest schema the reading commands understand: 10 added the boot's timing and start
// markers every report reads (0010_timing_marker.sql); an older file failed with SQLite's "no
// such column: b.start_marker". Opening a copy for writing migrates it.
constexpr int k_oldest_readable_schema = 10;

void refuse_unreadable_schema(SQLite::Database& db, const std::filesystem::path& path,
                              int version) {
    if (version == 0 || version >= k_oldest_readable_schema) {
        return; // 0: a new, empty file, with nothing to misread
    }
    long long first_run = 1;
    try {
        first_run = db.execAndGet("SELECT coalesce(min(id), 1) FROM runs").getInt64();
    } catch (const SQLite::Exception&) {
        // no runs table: the message below still says what to do
    }
    throw Error(fmt::format(
        "database {} has schema version {}, older than the {} this bootbench reads; it predates "
        "schema {} (boot markers). Migrate a copy, which leaves the file itself as it is:\n"
        "  cp {} migrated.sqlite && bootbench --db migrated.sqlite runs --run {} --tag migrated",
        path.string(), version, k_oldest_readable_schema, k_oldest_readable_schema,
        shell_quote(path.string()), first_run));
}
} // namespace

Database::Database(const fs::path& path, Mode mode) : m_path(path) {
    if (mode == Mode::ReadWrite) {
        check_writable_database_path(path);
    } else if (!fs::exists(path)) {
        const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
        throw Error(
            fs::is_directory(directory)
                ? fmt::format("no database at {} (run a boot first, or pass --db)", path.string())
                : fmt::format("no database at {}: the directory {} does not exist "
                              "(a typo in --db or BOOTBENCH_DB?)",
                              path.string(), directory.string()));
    } else if (!fs::is_regular_file(path)) { // a directory, a device node (links followed)
        throw Error(fmt::format("database {} is not a regular file; pass the path of a bootbench "
                                "database with --db",
                                path.string()));
    }
    try {
        if (mode == Mode::ReadWrite) {
            m_db = std::make_unique<SQLite::Database>(resolved_database_path(path).string(),
                                                      SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE |
                                                          SQLITE_OPEN_NOFOLLOW,
                                                      busy_timeout_ms());
            refuse_foreign_database(*m_db, path);
            switch_to_wal(*m_db, busy_timeout_ms());
            m_db->exec("PRAGMA synchronous = NORMAL");
        } else {
            // Reading cannot create or truncate anything, so a link here is followed.
            m_db = open_for_reading(path);
        }
        m_db->exec("PRAGMA foreign_keys = ON");
        if (mode == Mode::ReadOnly) {
            // A long read stops at the first SIGINT/SIGTERM (the flag util/interrupt.h sets),
            // not only at SIGKILL. Not for writers: a run that is winding down after a Ctrl-C
            // still records that it was interrupted.
            stop_statements_on_interrupt(true);
        }
    } catch (const SQLite::Exception& e) {
        throw_database_error(e, "cannot open database " + path.string(), "");
    }
    if (mode == Mode::ReadWrite) {
        try {
            migrate(*m_db, bundled_migrations(), path.string());
        } catch (const SQLite::Exception& e) {
            throw_database_error(e, "cannot write database " + path.string(),
                                 "is the path read-only?");
        }
    } else {
        int version = 0;
        try {
            version = schema_version(); // SQLite reads the file only now
        } catch (const SQLite::Exception& e) {
            throw_database_error(e, "cannot read database " + path.string(),
                                 "is it a bootbench database?");
        }
        if (version > latest_schema_version(bundled_migrations())) {
            throw Error(fmt::format("database {} has schema version {}, newer than this "
                                    "bootbench understands ({})",
                                    path.string(), version,
                                    latest_schema_version(bundled_migrations())));
        }
        refuse_unreadable_schema(*m_db, path, version);
        check_views_are_bootbench_own(*m_db, path.string(), version);
    }
}

void Database::stop_statements_on_interrupt(bool stop) {
    if (stop) {
        sqlite3_progress_handler(
            m_db->getHandle(), 10'000, [](void*) { return interrupted() ? 1 : 0; }, nullptr);
    } else {
        sqlite3_progress_handler(m_db->getHandle(), 0, nullptr, nullptr);
    }
}

int Database::schema_version() {
    return m_db->execAndGet("PRAGMA user_version").getInt();
}

} // namespace bb
