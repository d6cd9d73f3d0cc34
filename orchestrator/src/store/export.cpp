#include "store/export.h"

#include "util/error.h"
#include "util/paths.h"

#include <fmt/format.h>
#include <unistd.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
std::string id_list(const std::vector<long long>& ids) {
    std::string text;
    for (const long long id : ids) {
        text += (text.empty() ? "" : ", ") + std::to_string(id);
    }
    return text;
}

// Everything the kept runs do not refer to goes; boots take their metrics, histograms and
// events with them (ON DELETE CASCADE).
void keep_only(SQLite::Database& db, const std::vector<long long>& run_ids) {
    const std::string kept = "(" + id_list(run_ids) + ")";
    db.exec("DELETE FROM boots WHERE run_id NOT IN " + kept);
    db.exec("DELETE FROM run_cells WHERE run_id NOT IN " + kept);
    db.exec("UPDATE runs SET baseline_run_id = NULL WHERE baseline_run_id NOT IN " + kept);
    db.exec("DELETE FROM runs WHERE id NOT IN " + kept);
}

void drop_unreferenced(SQLite::Database& db) {
    db.exec("DELETE FROM experiments WHERE id NOT IN (SELECT experiment_id FROM runs "
            "WHERE experiment_id IS NOT NULL)");
    db.exec("DELETE FROM builds WHERE key NOT IN (SELECT build_key FROM boots "
            "WHERE build_key IS NOT NULL)");
    db.exec("DELETE FROM accel_probes WHERE host_id NOT IN (SELECT host_id FROM runs)");
    db.exec("DELETE FROM hosts WHERE id NOT IN (SELECT host_id FROM runs) AND id NOT IN "
            "(SELECT host_id FROM boots WHERE host_id IS NOT NULL)");
}
} // namespace

std::vector<long long> runs_of_experiments(Database& db, const std::vector<std::string>& names) {
    std::vector<long long> ids;
    for (const auto& name : names) {
        SQLite::Statement select(db.sql(), "SELECT r.id FROM runs r JOIN experiments e ON "
                                           "e.id = r.experiment_id WHERE e.name = ? ORDER BY r.id");
        select.bind(1, name);
        const size_t before = ids.size();
        while (select.executeStep()) {
            ids.push_back(select.getColumn(0).getInt64());
        }
        if (ids.size() == before) {
            throw Error(fmt::format("no run of experiment {} in {}", name, db.path().string()));
        }
    }
    return ids;
}

ExportSummary export_runs(Database& source, const std::vector<long long>& run_ids,
                          const fs::path& out) {
    check_output_target(out);
    for (const long long id : run_ids) {
        SQLite::Statement run(source.sql(), "SELECT 1 FROM runs WHERE id = ?");
        run.bind(1, static_cast<int64_t>(id));
        if (!run.executeStep()) {
            throw Error(fmt::format("no run {} in {}", id, source.path().string()));
        }
    }
    const fs::path temp = out.string() + fmt::format(".tmp.{}", getpid());
    fs::remove(temp);
    SQLite::Statement vacuum(source.sql(), "VACUUM INTO ?");
    vacuum.bind(1, temp.string());
    vacuum.exec();
    ExportSummary summary;
    {
        Database copy(temp); // migrates an older source to the current schema
        SQLite::Database& db = copy.sql();
        if (!run_ids.empty()) {
            keep_only(db, run_ids);
        }
        db.exec("UPDATE boots SET console_gz = NULL, console_tail = ''");
        drop_unreferenced(db);
        summary.runs = db.execAndGet("SELECT count(*) FROM runs").getInt64();
        summary.boots = db.execAndGet("SELECT count(*) FROM boots").getInt64();
        db.exec("PRAGMA journal_mode = DELETE"); // one self-contained file, no -wal beside it
        db.exec("VACUUM");
    }
    fs::rename(temp, out);
    summary.bytes = fs::file_size(out);
    return summary;
}

} // namespace bb
