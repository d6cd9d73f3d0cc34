#include "artifacts/build_request.h"

#include "artifacts/kernel_build.h"
#include "kernel/kconfig.h"

namespace bb {

BuildRequest build_request(const KernelBuildSpec& spec, int jobs) {
    BuildRequest request;
    request.arch = spec.arch;
    request.source = parse_source_spec(spec.source.empty() ? default_source_text() : spec.source);
    request.patches = spec.patches;
    request.config.base = spec.base;
    if (spec.default_fragment && spec.base.find('/') == std::string::npos) {
        request.config.fragments.push_back(resolve_fragment(default_fragment(spec.arch)));
    }
    for (const auto& fragment : spec.fragments) {
        request.config.fragments.push_back(resolve_fragment(fragment));
    }
    // A choice Kconfig does not have is a usage error now, before the kernel source is fetched
    // or unpacked (the build would refuse it with the same message only after that).
    if (spec.hz) {
        hz_options(*spec.hz);
    }
    if (spec.preempt) {
        preempt_options(*spec.preempt);
    }
    request.config.hz = spec.hz;
    request.config.preempt = spec.preempt;
    request.config.overrides = spec.set;
    request.jobs = jobs;
    return request;
}

} // namespace bb
