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
#include "schedule/quiet_settings.h"

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
};

// What the scheduler calls for this run's samples (a test may replace a part, e.g. the gate).
SampleWork run_sample_work(const RunExecution& run);

// One scheduler lane per boot lane.
std::vector<ScheduleLane> schedule_lanes(const BootLanes& lanes);

// Boots `todo` (and the planner's rounds after it) over the run's lanes.
ScheduleResult execute_run(const RunExecution& run, const std::vector<SampleRef>& todo,
                           int already_stored);

} // namespace bb
