#include "store/database_id.h"

#include "util/hash.h"

namespace bb {

std::string database_id(Database& db) {
    SQLite::Statement first(db.sql(),
                            "SELECT fingerprint, first_seen FROM hosts ORDER BY id LIMIT 1");
    if (!first.executeStep()) {
        return {};
    }
    return Sha256()
        .tagged("database-id-v1", "")
        .tagged("first-host", first.getColumn(0).getString())
        .tagged("first-seen", first.getColumn(1).getString())
        .hex()
        .substr(0, 8);
}

} // namespace bb
