#pragma once
// `bootbench bisect` (docs/bisect.md): finds which patch of a series moved a metric. Each step
// is an ordinary run of a derived experiment (bisect_step_experiment.h) through the four-stage
// pipeline (run_experiment), booted round by round until the step's decision rule decides
// (bisect_rounds.h); the steps follow the bisection (bisection.h). A step whose run is stored
// and decided is read back, not booted again, so re-running the same command resumes.
#include "bisect/bisection.h"
#include "experiment/experiment.h"
#include "pipeline/experiment_runner.h"
#include "store/database.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct BisectOptions {
    std::string variant; // --variant; empty: the only variant with patches
    std::optional<Endpoint>
        endpoint;        // --metric; none: the file's analysis endpoint, else boot time
    BisectLimits limits; // alpha: the whole bisection's chance of naming a wrong patch
    std::optional<std::uint64_t> seed; // none: the file's, else 1 (a bisect must find its steps)
    RunOptions run;                    // slots, build jobs, --only, quiet overrides, command line
};

// One step as it ended.
struct StepRun {
    int number = 0; // 1-based
    StepOutcome outcome;
    long long run_id = 0;
    int boots = 0;       // stored in its run, both prefixes
    bool stored = false; // read back from an earlier bisect, nothing booted
};

struct BisectReport {
    Endpoint endpoint;
    std::vector<std::filesystem::path> patches; // the series, in order
    Bisection bisection;
    std::vector<StepRun> steps;
    bool interrupted = false;
    int boots() const;
};

struct BisectProgress {
    RunProgress run;
    std::function<void(const StepRun&, const BisectReport&)> step; // a step has ended
};

// Throws Error for a file or options that cannot be bisected, RuntimeFailure when a step's run
// fails (it is kept for the next attempt).
BisectReport run_bisect(Database& db, const Experiment& experiment, const BisectOptions& options,
                        const BisectProgress& progress);

} // namespace bb
