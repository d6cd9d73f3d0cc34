#include "completion/stored_values.h"

#include "completion/value_kind.h"
#include "store/build_store.h"
#include "store/database.h"
#include "store/run_list.h"
#include "store/run_queries.h"

#include <fmt/format.h>

namespace bb {

namespace {

std::vector<Candidate> runs(Database& db) {
    std::vector<Candidate> candidates;
    for (const auto& run : list_runs(db, "")) {
        candidates.push_back({std::to_string(run.id),
                              fmt::format("{} · {} · {} · {} boots",
                                          run.experiment.empty() ? run.mode : run.experiment,
                                          run.started_at, to_string(run.status), run.boots)});
    }
    return candidates;
}

std::vector<Candidate> experiments(Database& db) {
    std::vector<Candidate> candidates;
    for (const auto& name : experiments_newest_first(db)) {
        candidates.push_back({name, "experiment"});
    }
    return candidates;
}

std::vector<Candidate> builds(Database& db) {
    std::vector<Candidate> candidates;
    for (const auto& build : BuildStore(db).list()) {
        candidates.push_back(
            {build.key,
             fmt::format("{} {}{} · built {}", build.arch, build.source_identity,
                         build.hz ? fmt::format(" · HZ {}", *build.hz) : "", build.created_at)});
    }
    return candidates;
}

} // namespace

std::vector<Candidate> stored_values(const std::filesystem::path& db, const std::string& kind) {
    try {
        Database database(db, Database::Mode::ReadOnly);
        if (kind == k_run_value) {
            return runs(database);
        }
        if (kind == k_experiment_value) {
            return experiments(database);
        }
        if (kind == k_build_value) {
            return builds(database);
        }
    } catch (...) { // NOLINT(bugprone-empty-catch): see the header
    }
    return {};
}

} // namespace bb
