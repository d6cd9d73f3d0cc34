#include "runner/experiment_kernels.h"

#include "runner/kernel_build.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/units.h"

#include <fmt/format.h>

namespace bb {

namespace {

BuildRequest build_request(const KernelBuildSpec& spec, int jobs) {
    BuildRequest request;
    request.arch = spec.arch;
    request.source = parse_source_spec(spec.source.empty() ? default_source_text() : spec.source);
    request.patches = spec.patches;
    request.config.base = spec.base;
    if (spec.base.find('/') == std::string::npos) {
        request.config.fragments.push_back(resolve_fragment(default_fragment(spec.arch)));
    }
    for (const auto& fragment : spec.fragments) {
        request.config.fragments.push_back(resolve_fragment(fragment));
    }
    request.config.hz = spec.hz;
    request.config.preempt = spec.preempt;
    request.config.overrides = spec.set;
    request.jobs = jobs;
    return request;
}

} // namespace

ExperimentKernels build_experiment_kernels(Database& db, const std::vector<Cell>& cells, int jobs,
                                           const KernelStageProgress& progress) {
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
        const BuildResult built = build_and_record(db, build_request(cell.build, jobs),
                                                   BuildProgress{progress.status, progress.note});
        progress.note(fmt::format("  {} {} ({})", built.cache_hit ? "cached" : "built",
                                  built.key.substr(0, 12), format_seconds(built.seconds)));
        kernels.cached += built.cache_hit ? 1 : 0;
        built_kernels[cell.build_id] = {built.image,     built.key, sha256_file(built.image),
                                        built.cache_hit, {},        {}};
    }
    return kernels;
}

} // namespace bb
