#include "store/run_queries.h"

#include "store/sql_binding.h"
#include "util/error.h"
#include "util/shell_quote.h"

#include <fmt/format.h>
#include <set>

namespace bb {

RunInfo describe_run(Database& db, long long run_id) {
    SQLite::Statement run(db.sql(), "SELECT r.id, coalesce(e.name, ''), r.started_at, r.status, "
                                    "h.hostname, coalesce(e.yaml, '') FROM runs r JOIN hosts h "
                                    "ON h.id = r.host_id "
                                    "LEFT JOIN experiments e ON e.id = r.experiment_id "
                                    "WHERE r.id = ?");
    run.bind(1, static_cast<int64_t>(run_id));
    if (!run.executeStep()) {
        require_runs(db, {run_id}); // names the runs there are
        throw Error(fmt::format("no run {} in {}", run_id, db.path().string()));
    }
    return {run.getColumn(0).getInt64(),  run.getColumn(1).getString(),
            run.getColumn(2).getString(), parse_run_status(run.getColumn(3).getString()),
            run.getColumn(4).getString(), run.getColumn(5).getString()};
}

namespace {

[[noreturn]] void throw_no_run(Database& db, long long id) {
    SQLite::Statement range(db.sql(), "SELECT count(*), min(id), max(id) FROM runs");
    range.executeStep();
    const std::string where = db.path().string();
    throw Error(
        fmt::format("no run {} in {}; {} (list them with: bootbench --db {} runs)", id, where,
                    range.getColumn(0).getInt() == 0
                        ? std::string("it has no runs yet")
                        : fmt::format("its runs are numbered {} to {}",
                                      range.getColumn(1).getInt64(), range.getColumn(2).getInt64()),
                    shell_quote(where)));
}

} // namespace

void require_runs(Database& db, const std::vector<long long>& run_ids) {
    if (run_ids.empty()) {
        return;
    }
    SQLite::Statement found(db.sql(), "SELECT id FROM runs WHERE id IN (" +
                                          sql_placeholders(run_ids.size()) + ")");
    bind_all(found, std::vector<SqlBinding>(run_ids.begin(), run_ids.end()));
    std::set<long long> present;
    while (found.executeStep()) {
        present.insert(found.getColumn(0).getInt64());
    }
    for (long long id : run_ids) {
        if (present.count(id) == 0) {
            throw_no_run(db, id);
        }
    }
}

std::vector<long long> runs_declaring_analysis(Database& db, const std::string& experiment) {
    SQLite::Statement select(db.sql(), "SELECT r.id FROM runs r LEFT JOIN experiments e ON "
                                       "e.id = r.experiment_id WHERE r.analysis_json IS NOT NULL "
                                       "AND (?1 = '' OR e.name = ?1) ORDER BY r.id");
    select.bind(1, experiment);
    std::vector<long long> found;
    while (select.executeStep()) {
        found.push_back(select.getColumn(0).getInt64());
    }
    return found;
}

std::vector<std::string> experiments_newest_first(Database& db) {
    SQLite::Statement select(db.sql(), "SELECT e.name FROM runs r JOIN experiments e ON e.id = "
                                       "r.experiment_id GROUP BY e.name ORDER BY max(r.id) DESC");
    std::vector<std::string> names;
    while (select.executeStep()) {
        names.push_back(select.getColumn(0).getString());
    }
    return names;
}

} // namespace bb
