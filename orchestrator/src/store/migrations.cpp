#include "store/migrations.h"

#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

namespace bb {

int latest_schema_version(const std::vector<Migration>& migrations) {
    return migrations.empty() ? 0 : migrations.back().number;
}

void migrate(SQLite::Database& db, const std::vector<Migration>& migrations,
             const std::string& db_name) {
    const int current = db.execAndGet("PRAGMA user_version").getInt();
    const int latest = latest_schema_version(migrations);
    if (current > latest) {
        throw Error(fmt::format("database {} has schema version {}, newer than this bootbench "
                                "understands ({}): use a newer bootbench or another --db",
                                db_name, current, latest));
    }
    for (const auto& migration : migrations) {
        if (migration.number <= current) {
            continue;
        }
        SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
        // Re-read under the write lock: another process may have migrated meanwhile.
        if (db.execAndGet("PRAGMA user_version").getInt() >= migration.number) {
            continue;
        }
        try {
            db.exec(migration.sql);
        } catch (const SQLite::Exception& e) {
            throw Error(fmt::format("migration {} failed on {}: {}", migration.name, db_name,
                                    e.what()));
        }
        db.exec(fmt::format("PRAGMA user_version = {}", migration.number));
        transaction.commit();
    }
}

} // namespace bb
