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
    std::optional<long long> baseline_run;
    int slower = 0;
    int faster = 0;
    int unchanged = 0;
    int insufficient = 0;
    std::filesystem::path report_path;
    bool regression() const { return slower > 0; }
};

// `bootbench nightly`: one run at a time per experiment (a lock), then every cell compared with
// the last good nightly (bootstrap CI of the difference of medians), a Markdown report written,
// and the run's verdict stored so tomorrow compares against a good night.
NightlyResult run_nightly(Database& db, const Experiment& experiment, const NightlyOptions& options,
                          const RunProgress& progress);

} // namespace bb
