#pragma once
#include "experiment/experiment.h"
#include "experiment/matrix.h"
#include "pipeline/boot_lanes.h"
#include "pipeline/round_planner.h"
#include "pipeline/run_artifacts.h"
#include "schedule/quiet_settings.h"
#include "store/database.h"
#include "store/run_status.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace bb {

// The two stages of a run that reach outside the process: making its kernels and images
// (prepare, pipeline/run_artifacts.h) and opening its lanes' launchers (qemu here, or libvirt
// hosts). A unit test gives its own — fake artifacts, fake launchers — so that run_experiment
// as a whole (seed choice, resume, finishing the run) runs in milliseconds.
struct RunEnvironment {
    std::function<RunArtifacts(const std::vector<Cell>&)> prepare;
    std::function<BootLanes(const RunArtifacts&, const std::vector<Cell>&)> open_lanes;
};

struct RunOptions {
    int slots = 0;                       // 0: as many as fit without oversubscription
    std::optional<long long> resume_run; // --resume RUN
    std::optional<std::uint64_t> seed;   // overrides the experiment's
    std::string mode = "adhoc";          // adhoc | nightly
    bool fresh_run = false;              // a new run with a new seed, never a resume (nightly)
    std::string command_line;
    int build_jobs = 0;
    AxisRestriction only;         // --only: run a subset of the cells now
    std::vector<FleetHost> hosts; // --hosts FILE: overrides the experiment's hosts
    QuietOverrides quiet;         // --quiet-*: override the experiment's quiet:
    std::optional<int> warmup;    // --warmup N: overrides the experiment's warmup:
    // Plans the rounds after the first `repeats` in place of the experiment's own rule
    // (repeats: until); `bootbench bisect` boots a step until its two kernels are told apart.
    RoundPlanner* rounds = nullptr;
    // nullptr: the real stages (the build cache and qemu or libvirt); unit tests only otherwise.
    const RunEnvironment* environment = nullptr;
};

struct RunProgress {
    std::function<void(const std::string&)> status; // transient status line
    std::function<void(const std::string&)> note;   // permanent line
    std::function<void(const std::string&)> sample; // one finished sample
};

struct RunReport {
    long long run_id = 0;
    RunStatus status = RunStatus::Running;
    std::uint64_t seed = 0;
    int samples_total = 0;
    int samples_skipped = 0; // already stored (resume)
    int samples_run = 0;     // booted now, warm-ups included
    int samples_warmup = 0;  // warm-up boots planned now (never used by a statistic)
    int samples_failed = 0;
    int samples_infra_failed = 0; // of them, infra-error: bootbench could not boot the guest
    int samples_contaminated = 0; // stored as loaded (schema 8)
    int samples_waited = 0;       // waited for a quiet host first
    double quiet_wait_seconds = 0;
    int builds = 0;
    int builds_cached = 0;
    bool resumed = false;
    int hosts_lost = 0;       // fleet hosts that stopped answering during the run
    int samples_requeued = 0; // samples of lost hosts booted again elsewhere
};

// `bootbench run`: builds what is missing, boots every cell `repeats` times in a seeded
// interleaving across CPU slots, stores every sample, and resumes where a previous run of the
// same experiment and seed stopped. When the quiet-host gate times out with on_timeout: stop,
// the run is marked failed and RuntimeFailure says why and how to resume.
RunReport run_experiment(Database& db, const Experiment& experiment, const RunOptions& options,
                         const RunProgress& progress);

} // namespace bb
