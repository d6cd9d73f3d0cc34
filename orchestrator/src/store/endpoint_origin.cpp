#include "store/endpoint_origin.h"

#include <nlohmann/json.hpp>

namespace bb {

std::map<long long, std::string> boots_timed_from_a_marker(Database& db,
                                                           const std::vector<long long>& boot_ids) {
    // One binding for any number of boots: a JSON array read by json_each.
    SQLite::Statement select(
        db.sql(), "SELECT b.id, coalesce(nullif(b.start_marker, ''), 'l2-start (not recorded)') "
                  "FROM boots b WHERE b.id IN (SELECT value FROM json_each(?)) AND "
                  "(coalesce(b.start_marker, '') != '' OR (b.start_marker IS NULL AND "
                  "json_extract(b.params_json, '$.topology') = 'nested'))");
    select.bind(1, nlohmann::json(boot_ids).dump());
    std::map<long long, std::string> timed;
    while (select.executeStep()) {
        timed[select.getColumn(0).getInt64()] = select.getColumn(1).getString();
    }
    return timed;
}

} // namespace bb
