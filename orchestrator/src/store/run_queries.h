#pragma once
// Runs as the reports read them back: what a run was and which runs declared an analysis (a
// run's boots: run_boots in store/sample_selection.h).
#include "store/database.h"
#include "store/run_status.h"

#include <string>
#include <vector>

namespace bb {

// A run as a comparison names it.
struct RunInfo {
    long long id = 0;
    std::string experiment; // empty for ad-hoc boots
    std::string started_at;
    RunStatus status = RunStatus::Running;
    std::string host;
    std::string experiment_yaml; // the experiment file as the run read it; empty for ad-hoc boots
};

RunInfo describe_run(Database& db, long long run_id); // throws Error when there is no such run

// Throws Error naming the first id that is not a run, and the range of those there are.
void require_runs(Database& db, const std::vector<long long>& run_ids);

// The ids of the runs that declared an analysis (analysis: in their experiment), in order;
// `experiment` non-empty: only that experiment's.
std::vector<long long> runs_declaring_analysis(Database& db, const std::string& experiment);

// The experiments that have runs, the one with the newest run first (ad-hoc boots, which
// belong to no experiment, are not one).
std::vector<std::string> experiments_newest_first(Database& db);

} // namespace bb
