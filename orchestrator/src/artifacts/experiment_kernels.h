#pragma once
// The kernel stage of a run: every distinct kernel an experiment's cells boot, built (or found
// in the cache) once each, in the order the cells first need them. `bootbench run` boots them;
// `bootbench build FILE.yaml` stops here (a nightly job pre-builds with it).
#include "experiment/matrix.h"
#include "store/database.h"
#include "util/progress.h"

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bb {

struct BuiltKernel {
    std::filesystem::path image;
    std::string key;
    std::string kernel_sha256;
    bool cache_hit = false;       // found in the cache: no make ran
    std::filesystem::path initrd; // set by the run once the guest image is made
    std::string initrd_sha256;
};

struct ExperimentKernels {
    std::map<std::string, BuiltKernel> by_build_id; // Cell::build_id -> kernel
    int cached = 0;                                 // found in the cache, no make
    bool interrupted = false;                       // Ctrl-C: the rest were not built
};

// Builds each distinct kernel of `cells` once with `jobs` make jobs (0: host CPUs), recording
// it in the database's `builds` table; prints "kernel i/N: variant V, HZ=H" and "cached KEY"
// or "built KEY (time)" per kernel.
ExperimentKernels build_experiment_kernels(Database& db, const std::vector<Cell>& cells, int jobs,
                                           const Progress& progress);

} // namespace bb
