#pragma once
#include "experiment/experiment.h"

namespace bb {

// The files an experiment names — config fragments, patches, the workload, L2's kernel — exist
// and are what they claim to be (a patch holds a diff). Throws Error naming the file, the
// variant and the experiment, so `bootbench run --validate` finds them before any build.
void check_experiment_files(const Experiment& experiment);

} // namespace bb
