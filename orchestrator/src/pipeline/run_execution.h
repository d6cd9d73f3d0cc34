#pragma once
// A run's execute stage wired to its other stages: the lanes' launchers boot the cells' specs
// (prepare: run_artifacts.h), the recorder stores (record: sample_recorder.h), a round planner
// (precision repeats, a bisect step) plans the rounds after the first, the quiet gate guards each
// sample on this machine. `bootbench run` calls it with qemu or libvirt lanes; unit tests with fake
// launchers (tests/unit/fake_launcher.h).
#include "experiment/experiment.h"
#include "experiment/matrix.h"
#include "pipeline/boot_lanes.h"
#include "pipeline/experiment_runner.h"
#include "pipeline/round_planner.h"
#include "pipeline/run_artifacts.h"
#include "pipeline/sample_recorder.h"
#include "pipeline/sample_scheduler.h"
#include "schedule/quiet_gate.h"
#include "schedule/quiet_settings.h"

#include <memory>
#include <vector>

namespace bb {

struct RunExecution {
    const Experiment& experiment;
    const std::vector<Cell>& cells;
    const RunArtifacts& artifacts;
    const BootLanes& lanes;
    const QuietSettings& quiet;
    SampleRecorder& recorder;
    RoundPlanner& rounds;
    long long run_id = 0;
    RunProgress progress;
    // The quiet gate's load window of each lane (schedule/quiet_gate.h), when the caller opened
    // them before its own preparation: `boot` does, so the window before its first boot spans
    // hashing and image checks instead of a second spent idle right before the guest starts
    // (issue 48 item 9b). Null: opened when the work is made.
    std::shared_ptr<std::vector<HostLoadSource>> load_sources{};
};

// What the scheduler calls for this run's samples (a test may replace a part, e.g. the gate).
SampleWork run_sample_work(const RunExecution& run);

// One scheduler lane per boot lane.
std::vector<ScheduleLane> schedule_lanes(const BootLanes& lanes);

// Boots `todo` (and the planner's rounds after it) over the run's lanes.
ScheduleResult execute_run(const RunExecution& run, const std::vector<SampleRef>& todo,
                           int already_stored);

} // namespace bb
