#pragma once
#include <SQLiteCpp/SQLiteCpp.h>
#include <filesystem>
#include <memory>

namespace bb {

// The results database: WAL (readers never block the writer), foreign keys on, a generous busy
// timeout so two bootbench processes share one file, schema migrated on open. ReadWrite refuses,
// before writing anything, a path that is a symbolic link or not a regular file and an SQLite
// file that is neither new (empty) nor bootbench's; ReadOnly follows links (it cannot write).
class Database {
  public:
    enum class Mode { ReadWrite, ReadOnly };
    explicit Database(const std::filesystem::path& path, Mode mode = Mode::ReadWrite);

    SQLite::Database& sql() { return *m_db; }
    // Whether a running statement stops at the first SIGINT/SIGTERM (the flag util/interrupt.h
    // sets): SQLite then fails it with SQLITE_INTERRUPT, and a transaction rolls back. On for
    // readers from the start; a writer turns it on around work a signal may undo (a delete).
    void stop_statements_on_interrupt(bool stop);
    const std::filesystem::path& path() const { return m_path; }
    int schema_version();

  private:
    std::filesystem::path m_path;
    std::unique_ptr<SQLite::Database> m_db;
};

} // namespace bb
