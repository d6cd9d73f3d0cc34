#include "store/run_list.h"

#include "store/run_labels.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <algorithm>
#include <fmt/format.h>

namespace bb {

std::vector<RunListing> list_runs(Database& db, const std::string& experiment,
                                  const std::string& tag) {
    SQLite::Statement select(db.sql(),
                             "SELECT r.id, coalesce(e.name, ''), r.mode, r.status, r.started_at, "
                             "coalesce(r.finished_at, ''), "
                             "(SELECT count(*) FROM v_samples v WHERE v.run_id = r.id), "
                             "(SELECT count(*) FROM v_samples v WHERE v.run_id = r.id AND v.used), "
                             "r.analysis_json IS NOT NULL "
                             "FROM runs r LEFT JOIN experiments e ON e.id = r.experiment_id "
                             "WHERE ?1 = '' OR e.name = ?1 ORDER BY r.id");
    select.bind(1, experiment);
    auto labels = run_labels(db);
    std::vector<RunListing> runs;
    while (select.executeStep()) {
        RunListing run{select.getColumn(0).getInt64(),
                       select.getColumn(1).getString(),
                       select.getColumn(2).getString(),
                       parse_run_status(select.getColumn(3).getString()),
                       select.getColumn(4).getString(),
                       select.getColumn(5).getString(),
                       select.getColumn(6).getInt64(),
                       select.getColumn(7).getInt64(),
                       select.getColumn(8).getInt() != 0,
                       {},
                       {}};
        if (auto found = labels.find(run.id); found != labels.end()) {
            run.tags = std::move(found->second.tags);
            run.note = std::move(found->second.note);
        }
        if (tag.empty() || std::find(run.tags.begin(), run.tags.end(), tag) != run.tags.end()) {
            runs.push_back(std::move(run));
        }
    }
    return runs;
}

namespace {

long long count_of(Database& db, const std::string& sql, long long run_id) {
    SQLite::Statement count(db.sql(), sql);
    count.bind(1, static_cast<int64_t>(run_id));
    count.executeStep();
    return count.getColumn(0).getInt64();
}

// Nothing left pointing at a deleted row, and the file itself sound: checked inside the
// transaction, so a failure rolls everything back.
void check_integrity(Database& db) {
    SQLite::Statement dangling(db.sql(), "PRAGMA foreign_key_check");
    if (dangling.executeStep()) {
        throw RuntimeFailure(fmt::format("deleting the run would leave a row of {} pointing at a "
                                         "deleted one; nothing was deleted",
                                         dangling.getColumn(0).getString()));
    }
    SQLite::Statement sound(db.sql(), "PRAGMA quick_check");
    if (sound.executeStep() && sound.getColumn(0).getString() != "ok") {
        throw RuntimeFailure(fmt::format("the database's integrity check failed after deleting "
                                         "the run ({}); nothing was deleted",
                                         sound.getColumn(0).getString()));
    }
}

} // namespace

DeletedRun delete_run(Database& db, long long run_id) {
    require_runs(db, {run_id});
    SQLite::Transaction transaction(db.sql(), SQLite::TransactionBehavior::IMMEDIATE);
    const long long dependants =
        count_of(db, "SELECT count(*) FROM runs WHERE baseline_run_id = ?", run_id);
    if (dependants > 0) {
        throw Error(fmt::format("run {} is the baseline of {} nightly run(s): deleting it would "
                                "leave their comparisons without it; nothing was deleted",
                                run_id, dependants));
    }
    DeletedRun deleted;
    deleted.boots = count_of(db, "SELECT count(*) FROM boots WHERE run_id = ?", run_id);
    deleted.metrics = count_of(db,
                               "SELECT count(*) FROM metrics WHERE boot_id IN "
                               "(SELECT id FROM boots WHERE run_id = ?)",
                               run_id);
    for (const char* statement :
         {"DELETE FROM boots WHERE run_id = ?", "DELETE FROM run_cells WHERE run_id = ?",
          "DELETE FROM run_tags WHERE run_id = ?", "DELETE FROM runs WHERE id = ?"}) {
        SQLite::Statement remove(db.sql(), statement);
        remove.bind(1, static_cast<int64_t>(run_id));
        remove.exec();
    }
    check_integrity(db);
    transaction.commit();
    return deleted;
}

} // namespace bb
