#include "pipeline/run_artifacts.h"

#include "artifacts/guest_image.h"
#include "pipeline/nested_boot.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/interrupt.h"

#include <algorithm>
#include <fmt/format.h>

namespace bb {

namespace {

// ", devices: virtio-blk-pci virtio-net-pci, 2 queues" for the image's note.
std::string devices_note(const L2Launch& l2) {
    std::string text;
    for (const auto& device : l2.devices) {
        text += (text.empty() ? ", devices: " : " ") + device;
    }
    if (l2.queues) {
        text += fmt::format(", {} queues", *l2.queues);
    }
    return text;
}

NestedImageRequest nested_request(const Experiment& experiment) {
    NestedImageRequest request;
    request.l2_kernel = experiment.nested.l2_kernel;
    request.workload = experiment.guest.workload;
    request.programs = experiment.guest.programs;
    request.l2_modules = experiment.nested.l2_modules;
    request.l2.smp = experiment.nested.l2_smp;
    request.l2.memory_mb = experiment.nested.l2_memory_mb;
    QemuSpec l2;
    l2.arch = Arch::Arm64;
    l2.cmdline = experiment.nested.l2_cmdline;
    request.l2.cmdline = effective_cmdline(l2); // with L2's console=
    request.l2.firmware_mode =
        experiment.nested.l2_firmware == "pflash" ? L2Firmware::Pflash : L2Firmware::Bios;
    request.l2.probes = experiment.nested.l1_probes == "calls" ? L1Probes::Calls : L1Probes::All;
    request.l2.devices = experiment.nested.l2_devices;
    if (experiment.nested.l2_varstore == "full") {
        request.full_varstore_live = experiment.nested.l2_varstore_live;
    }
    return request;
}

// One image per queue count the nested cells use: the rest of L2's launch is the experiment's.
std::map<std::optional<int>, NestedImage>
prepare_nested(const Experiment& experiment, const std::vector<Cell>& cells,
               const std::function<void(const std::string&)>& note) {
    std::map<std::optional<int>, NestedImage> images;
    for (const auto& cell : cells) {
        if (cell.topology != Topology::Nested || images.count(cell.l2_queues) != 0) {
            continue;
        }
        NestedImageRequest request = nested_request(experiment);
        request.l2.queues = cell.l2_queues;
        NestedImage nested = prepare_nested_image(request, note);
        note(fmt::format("L1 image: {} libraries from {} arm64 packages, L2 {} ({}{}{}){}",
                         nested.libraries, nested.debs.size(), nested.l2_kernel.filename().string(),
                         to_string(request.l2.firmware_mode),
                         nested.varstore_fill.empty() ? "" : ", store: " + nested.varstore_fill,
                         devices_note(request.l2), nested.initramfs.cache_hit ? ", cached" : ""));
        images.emplace(cell.l2_queues, std::move(nested));
    }
    return images;
}

} // namespace

RunArtifacts prepare_run_artifacts(Database& db, const Experiment& experiment,
                                   const std::vector<Cell>& cells, int build_jobs,
                                   const Progress& progress) {
    RunArtifacts artifacts;
    artifacts.arch = experiment.kernel.arch;
    // Each distinct build once (a cmdline-only axis needs none beyond the first).
    ExperimentKernels built = build_experiment_kernels(db, cells, build_jobs, progress);
    if (interrupted()) {
        throw Interrupted("interrupted while building; nothing was booted");
    }
    artifacts.kernels = std::move(built.by_build_id);
    artifacts.kernels_cached = built.cached;
    // One image per kernel: a modular kernel brings its own modules into the guest.
    for (auto& [build_id, kernel] : artifacts.kernels) {
        const Initramfs image = prepare_guest_image(artifacts.arch, experiment.guest.workload,
                                                    kernel.image, experiment.guest.programs);
        kernel.initrd = image.path;
        kernel.initrd_sha256 = sha256_file(image.path);
    }
    artifacts.nested = prepare_nested(experiment, cells, progress.note);
    for (const auto& cell : cells) {
        if (cell.firmware && !artifacts.firmware.count(*cell.firmware)) {
            artifacts.firmware.emplace(*cell.firmware,
                                       resolve_firmware(*cell.firmware, artifacts.arch));
        }
    }
    return artifacts;
}

QemuSpec RunArtifacts::spec_for(const Cell& cell) const {
    QemuSpec spec;
    spec.arch = arch;
    spec.kernel = kernels.at(cell.build_id).image;
    spec.initrd = kernels.at(cell.build_id).initrd;
    spec.machine = cell.machine;
    spec.cpu = cell.cpu;
    spec.smp = cell.smp.value_or(2);
    spec.memory_mb = cell.memory_mb.value_or(1024);
    if (cell.topology == Topology::Nested) {
        spec.initrd = nested.at(cell.l2_queues).initramfs.path;
        spec.machine = cell.machine.empty() ? k_l1_machine : cell.machine;
        spec.memory_mb = cell.memory_mb.value_or(k_l1_memory_mb);
    }
    if (cell.firmware) {
        spec.firmware = firmware.at(*cell.firmware).path;
    }
    spec.cmdline = cell.cmdline;
    return spec;
}

void RunArtifacts::stamp(BootRecord& boot, const Cell& cell) const {
    const BuiltKernel& kernel = kernels.at(cell.build_id);
    boot.kernel_sha256 = kernel.kernel_sha256;
    if (!kernel.key.empty()) { // `bootbench boot` of a kernel bootbench did not build has none
        boot.build_key = kernel.key;
    }
    boot.initrd_sha256 =
        cell.topology == Topology::Nested ? nested.at(cell.l2_queues).sha256 : kernel.initrd_sha256;
    if (cell.firmware) {
        boot.firmware_name = *cell.firmware;
        boot.firmware_sha256 = firmware.at(*cell.firmware).sha256;
    }
}

} // namespace bb
