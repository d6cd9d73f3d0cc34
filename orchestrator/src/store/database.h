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
    const std::filesystem::path& path() const { return m_path; }
    int schema_version();

  private:
    std::filesystem::path m_path;
    std::unique_ptr<SQLite::Database> m_db;
};

} // namespace bb
