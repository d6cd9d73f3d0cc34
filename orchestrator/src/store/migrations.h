#pragma once
#include <string>
#include <vector>

namespace SQLite {
class Database;
}

namespace bb {

struct Migration {
    int number;
    std::string name;
    std::string sql;
};

// Compiled in from db/migrations/*.sql, in order.
const std::vector<Migration>& bundled_migrations();

int latest_schema_version(const std::vector<Migration>& migrations);

// Brings the schema up to the newest of `migrations`, each in its own transaction, with the
// version kept in PRAGMA user_version. A database newer than this binary is refused: writing
// rows into a schema we do not understand would corrupt someone's results.
void migrate(SQLite::Database& db, const std::vector<Migration>& migrations,
             const std::string& db_name);

} // namespace bb
