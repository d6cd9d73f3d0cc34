#include "store/export.h"

#include "store/run_queries.h"
#include "util/error.h"
#include "util/output_guard.h"
#include "util/paths.h"

#include <cerrno>
#include <csignal>
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
    db.exec("DELETE FROM run_tags WHERE run_id NOT IN " + kept);
    db.exec("UPDATE runs SET baseline_run_id = NULL WHERE baseline_run_id NOT IN " + kept);
    db.exec("DELETE FROM runs WHERE id NOT IN " + kept);
}

void drop_unreferenced(SQLite::Database& db) {
    db.exec("DELETE FROM experiments WHERE id NOT IN (SELECT experiment_id FROM runs "
            "WHERE experiment_id IS NOT NULL)");
    db.exec("DELETE FROM builds WHERE key NOT IN (SELECT build_key FROM boots "
            "WHERE build_key IS NOT NULL)");
    db.exec("DELETE FROM accel_probes WHERE host_id NOT IN (SELECT host_id FROM runs)");
    db.exec("DELETE FROM host_conditions WHERE id NOT IN (SELECT host_conditions_id FROM boots "
            "WHERE host_conditions_id IS NOT NULL)");
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

namespace {
// A temporary copy and the -wal/-shm files SQLite may have made beside it.
void remove_copy(const fs::path& temp) {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        fs::remove(temp.string() + suffix, ignored);
    }
}

// Copies left by an export that was killed (SIGKILL, a lost machine): `<out>.tmp.<pid>` whose
// process no longer runs.
void remove_stale_copies(const fs::path& out) {
    std::error_code error;
    const fs::path dir = out.parent_path().empty() ? fs::path(".") : out.parent_path();
    const std::string prefix = out.filename().string() + ".tmp.";
    for (const auto& entry : fs::directory_iterator(dir, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0) {
            continue;
        }
        const std::string rest = name.substr(prefix.size());
        const std::string pid = rest.substr(0, rest.find('-'));
        // At most 9 digits: a pid, and within std::stol's range whatever else lies there.
        if (pid.empty() || pid.size() > 9 ||
            pid.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        if (kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH) {
            fs::remove(entry.path(), error);
        }
    }
}

} // namespace

void check_export_target(const Database& source, const fs::path& out, bool replace) {
    check_command_output(out, source.path(), replace);
}

ExportSummary export_runs(Database& source, const std::vector<long long>& run_ids,
                          const fs::path& out, bool replace) {
    check_export_target(source, out, replace);
    require_runs(source, run_ids); // names the runs there are and how to list them
    remove_stale_copies(out);
    const fs::path temp = out.string() + fmt::format(".tmp.{}", getpid());
    remove_copy(temp);
    ExportSummary summary;
    try {
        SQLite::Statement vacuum(source.sql(), "VACUUM INTO ?");
        vacuum.bind(1, temp.string());
        vacuum.exec();
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
    } catch (...) {
        remove_copy(temp); // an error or an interrupt leaves nothing behind
        throw;
    }
    fs::rename(temp, out);
    summary.bytes = fs::file_size(out);
    return summary;
}

} // namespace bb
