#pragma once
// The prepare stage of a run (docs/architecture.md, "A sample's way"): everything the cells
// boot — each distinct kernel with its guest image, the nested L1 image, each firmware — made
// or found in the caches once, with the hashes every stored sample carries. From it, a cell's
// qemu shape (`spec_for`) and the artifact identity of a boot (`stamp`).
#include "artifacts/experiment_kernels.h"
#include "artifacts/nested_image.h"
#include "experiment/experiment.h"
#include "experiment/matrix.h"
#include "store/boot_record.h"
#include "store/database.h"
#include "vm/firmware.h"
#include "vm/qemu_spec.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct RunArtifacts {
    Arch arch = Arch::Arm64;
    std::map<std::string, BuiltKernel> kernels; // Cell::build_id -> kernel, with its initrd
    // The nested L1 images, one per L2 queue count of the nested cells (Cell::l2_queues: L2's
    // command line is in L1's /init); empty when no cell is nested.
    std::map<std::optional<int>, NestedImage> nested;
    std::map<std::string, Firmware> firmware; // Cell::firmware -> resolved and hashed
    int kernels_cached = 0;                   // found in the build cache, no make

    // The qemu shape of `cell` (its accelerator is the lane's to set).
    QemuSpec spec_for(const Cell& cell) const;
    // What `cell` booted, by hash: kernel, build key, initramfs, firmware.
    void stamp(BootRecord& boot, const Cell& cell) const;
};

// Builds (or finds) every kernel of `cells` and makes their guest images, the nested image and
// the firmware. Throws Interrupted after a Ctrl-C during the builds.
RunArtifacts prepare_run_artifacts(Database& db, const Experiment& experiment,
                                   const std::vector<Cell>& cells, int build_jobs,
                                   const Progress& progress);

} // namespace bb
