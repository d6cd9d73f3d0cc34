#pragma once
#include "pipeline/experiment_runner.h"

#include <filesystem>
#include <optional>
#include <string>

namespace bb {

struct NightlyOptions {
    RunOptions run;
    std::filesystem::path report_dir; // empty: $CACHE/nightly/<experiment>
    double threshold = 0.02;          // a slowdown must also exceed this relative change
};

struct NightlyResult {
    RunReport run;
    std::optional<long long> baseline_run; // the last good nightly before this one
    int slower = 0;
    int faster = 0;
    int unchanged = 0;
    int insufficient = 0;
    std::filesystem::path report_path;
    bool regression() const { return slower > 0; }
};

// `bootbench nightly`: one run at a time per experiment (a lock), then every cell compared with
// the earlier nightlies — night-level (stats/night_gate.h) when at least 5 of the last 10
// finished ones hold the cell, else boot-level against the last good one (Hodges-Lehmann,
// exact Mann-Whitney) —
// a Markdown report written, and the run's verdict stored so tomorrow compares against good
// nights.
NightlyResult run_nightly(Database& db, const Experiment& experiment, const NightlyOptions& options,
                          const RunProgress& progress);

} // namespace bb
