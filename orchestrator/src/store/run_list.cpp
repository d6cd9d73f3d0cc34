#include "store/run_list.h"

#include "store/run_labels.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/interrupt.h"

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

// Every row that points at a missing row: "boots row 7 → hosts".
std::vector<std::string> dangling_rows(Database& db) {
    SQLite::Statement check(db.sql(), "PRAGMA foreign_key_check");
    std::vector<std::string> rows;
    while (check.executeStep()) {
        rows.push_back(fmt::format("{} row {} → {}", check.getColumn(0).getString(),
                                   check.getColumn(1).getInt64(), check.getColumn(2).getString()));
    }
    return rows;
}

// Nothing new left pointing at a deleted row, and the file itself sound: checked inside the
// transaction, so a failure rolls everything back. Rows that dangled before (`before`) are the
// database's old damage, not the delete's: they are named, not blamed on the run.
void check_integrity(Database& db, long long run_id, const std::vector<std::string>& before) {
    for (const auto& row : dangling_rows(db)) {
        if (std::find(before.begin(), before.end(), row) == before.end()) {
            throw RuntimeFailure(fmt::format("deleting run {} would leave {} pointing at a deleted "
                                             "row; nothing was deleted",
                                             run_id, row));
        }
    }
    SQLite::Statement sound(db.sql(), "PRAGMA quick_check");
    if (sound.executeStep() && sound.getColumn(0).getString() != "ok") {
        throw RuntimeFailure(fmt::format("the database's integrity check failed after deleting "
                                         "run {} ({}); nothing was deleted",
                                         run_id, sound.getColumn(0).getString()));
    }
}

void refuse_live_run(Database& db, long long run_id) {
    SQLite::Statement status(db.sql(), "SELECT status FROM runs WHERE id = ?");
    status.bind(1, static_cast<int64_t>(run_id));
    if (status.executeStep() && status.getColumn(0).getString() == "running") {
        throw Error(fmt::format("run {} is still running: a bootbench writing it may be live "
                                "(a run that was killed stays 'running'; --resume it, or delete it "
                                "with --force once no writer is left); nothing was deleted",
                                run_id));
    }
}

// A long DELETE (a 200k-boot run) stops at SIGINT/SIGTERM while this lives: SQLite interrupts
// the statement and the transaction rolls back.
class StopOnInterrupt {
  public:
    explicit StopOnInterrupt(Database& db) : m_db(db) { m_db.stop_statements_on_interrupt(true); }
    ~StopOnInterrupt() { m_db.stop_statements_on_interrupt(false); }
    StopOnInterrupt(const StopOnInterrupt&) = delete;
    StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

  private:
    Database& m_db;
};

void throw_if_interrupted(long long run_id) {
    if (interrupted()) {
        throw Interrupted(fmt::format("run {} was not deleted (rolled back)", run_id));
    }
}

} // namespace

DeletedRun delete_run(Database& db, long long run_id, bool force) {
    const StopOnInterrupt stop(db);
    SQLite::Transaction transaction(db.sql(), SQLite::TransactionBehavior::IMMEDIATE);
    require_runs(db, {run_id}); // inside the transaction: no writer can remove it meanwhile
    if (!force) {
        refuse_live_run(db, run_id);
    }
    const long long dependants =
        count_of(db, "SELECT count(*) FROM runs WHERE baseline_run_id = ?", run_id);
    if (dependants > 0) {
        throw Error(fmt::format("run {} is the baseline of {} nightly run(s): deleting it would "
                                "leave their comparisons without it; nothing was deleted",
                                run_id, dependants));
    }
    DeletedRun deleted;
    deleted.damaged_before = dangling_rows(db);
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
        throw_if_interrupted(run_id);
    }
    check_integrity(db, run_id, deleted.damaged_before);
    throw_if_interrupted(run_id); // the last moment a signal can still undo it
    transaction.commit();
    return deleted;
}

} // namespace bb
