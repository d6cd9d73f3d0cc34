#include "pipeline/experiment_files.h"

#include "artifacts/kernel_build.h"
#include "kernel/patch_series.h"
#include "util/error.h"
#include "vm/kernel_image.h"

#include <fmt/format.h>
#include <functional>

namespace bb {

namespace fs = std::filesystem;

namespace {
void check(const Experiment& experiment, const std::string& where,
           const std::function<void()>& test) {
    try {
        test();
    } catch (const Error& error) {
        throw Error(fmt::format("{}: {}{}", experiment.file_name, where, error.what()));
    }
}
} // namespace

void check_experiment_files(const Experiment& experiment) {
    for (const auto& fragment : experiment.kernel.fragments) {
        check(experiment, "kernel: ", [&] { resolve_fragment(fragment); });
    }
    for (const auto& variant : experiment.kernel.variants) {
        const std::string where = fmt::format("variant {}: ", variant.name);
        for (const auto& fragment : variant.fragments) {
            check(experiment, where, [&] { resolve_fragment(fragment); });
        }
        check(experiment, where, [&] { load_patch_series(variant.patches); });
    }
    if (experiment.guest.workload && !fs::is_regular_file(*experiment.guest.workload)) {
        throw Error(fmt::format("{}: guest: workload not found: {}", experiment.file_name,
                                experiment.guest.workload->string()));
    }
    if (experiment.nested.l2_kernel && !fs::is_regular_file(*experiment.nested.l2_kernel)) {
        throw Error(fmt::format("{}: nested: l2_kernel not found: {}", experiment.file_name,
                                experiment.nested.l2_kernel->string()));
    }
    if (experiment.nested.l2_kernel) {
        // L2 boots under L1's arm64 qemu, which would run any file as a raw image.
        check(experiment, "nested: l2_kernel: ", [&] {
            require_kernel_image(*experiment.nested.l2_kernel, Arch::Arm64);
        });
    }
}

} // namespace bb
