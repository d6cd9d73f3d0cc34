#include "artifacts/experiment_kernels.h"

#include "artifacts/build_request.h"
#include "artifacts/kernel_build.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/units.h"

#include <fmt/format.h>

namespace bb {

ExperimentKernels build_experiment_kernels(Database& db, const std::vector<Cell>& cells, int jobs,
                                           const Progress& progress) {
    ExperimentKernels kernels;
    auto& built_kernels = kernels.by_build_id;
    const auto builds = distinct_builds(cells);
    for (const auto& cell : cells) {
        if (built_kernels.count(cell.build_id)) {
            continue;
        }
        if (interrupted()) {
            kernels.interrupted = true;
            break;
        }
        progress.note(fmt::format("kernel {}/{}: variant {}{}", built_kernels.size() + 1,
                                  builds.size(), cell.variant,
                                  cell.build.hz ? fmt::format(", HZ={}", *cell.build.hz) : ""));
        const BuildResult built = build_and_record(db, build_request(cell.build, jobs), progress);
        progress.note(fmt::format("  {} {} ({})", built.cache_hit ? "cached" : "built",
                                  built.key.substr(0, 12), format_seconds(built.seconds)));
        kernels.cached += built.cache_hit ? 1 : 0;
        built_kernels[cell.build_id] = {built.image,     built.key, sha256_file(built.image),
                                        built.cache_hit, {},        {}};
    }
    return kernels;
}

} // namespace bb
