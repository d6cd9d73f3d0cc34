#pragma once
#include "experiment/matrix.h"
#include "kernel/kernel_builder.h"

namespace bb {

// The one mapping from a kernel build as an experiment or `bootbench build` states it to what
// the builder runs: the default source when none is named, the arch's minimal fragment first
// (unless the base is a file of its own, or spec.default_fragment is off), then the spec's
// fragments in order, HZ, preemption and --set overrides as given. Throws Error for an HZ or
// preemption model Kconfig does not have, before anything is fetched.
BuildRequest build_request(const KernelBuildSpec& spec, int jobs);

} // namespace bb
