#pragma once
// Runs as the reports read them back: what a run was, which runs declared an analysis, and each
// boot of a run with the v_samples view's classification (used, loaded).
#include "store/database.h"
#include "store/run_status.h"

#include <optional>
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

// One boot of a run, classified by v_samples (the one "used sample" rule, store/sample_rule.h).
struct RunSample {
    long long boot_id = 0;
    std::string cell_key;
    std::string params_json;
    int repeat_index = 0;
    std::string outcome;
    bool params_applied = true;
    bool loaded = false;
    bool used = false;
    std::optional<double> boot_seconds;
    double wall_seconds = 0;
    std::string host; // libvirt URI, else hostname
};

// Every boot of the run, by boot id.
std::vector<RunSample> run_samples(Database& db, long long run_id);

} // namespace bb
