#pragma once
#include "console/console_monitor.h"
#include "pipeline/accel_selection.h"
#include "schedule/quiet_settings.h"
#include "store/database.h"
#include "store/run_status.h"
#include "util/progress.h"
#include "vm/firmware.h"
#include "vm/launcher.h"
#include "vm/qemu_spec.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bb {

// `bootbench boot`: one kernel booted N times. The caller gives the qemu shape; this resolves
// firmware, builds (or reuses) the initramfs, picks the accelerator, and stores every boot.
struct BootSeriesRequest {
    QemuSpec spec;                       // firmware, initrd and accel are filled in here
    std::optional<std::string> firmware; // a name (QEMU_EFI.fd) or a path
    AccelRequest accel = AccelRequest::Auto;
    bool reprobe = false;
    int repeats = 1;
    int warmup = 0; // boots before the series, stored and never used (store/sample_rule.h)
    MonitorLimits limits;
    std::optional<std::filesystem::path> workload_script; // run by /init between the markers
    std::vector<std::filesystem::path> programs;          // C sources, built into /bin
    std::optional<std::filesystem::path> initrd;          // the user's own image instead of ours
    std::string command_line;
    std::optional<std::string> build_key;
    QuietSettings quiet; // the quiet-host gate before every boot (this machine only)
    // The machine the launcher boots on when it is not this one (a libvirt host).
    std::optional<HostFacts> host;
    std::string host_libvirt_uri;
};

struct BootSeriesResult {
    long long run_id = 0;
    RunStatus run_status = RunStatus::Running;
    std::string stop_reason; // set when the quiet-host gate stopped the series (run failed)
    AccelChoice accel;
    std::vector<long long> boot_ids;
    std::vector<BootRecord> boots; // without the console log, to keep memory flat
};

// What every boot of the series is stamped with: the spec with its firmware and initramfs
// (bootbench's image, built or cached, unless the request brings one) and their hashes.
struct SeriesInputs {
    QemuSpec spec;
    std::optional<Firmware> firmware;
    std::string kernel_sha256;
    std::string initrd_sha256;
};
SeriesInputs prepare_boot_series(const BootSeriesRequest& request, const Progress& progress);

// Boots the series as a one-cell run on the pipeline of `bootbench run` (one lane, no
// shuffle): each boot behind the quiet gate, stored by the same recorder. An interrupted boot
// is not stored.
BootSeriesResult run_boot_series(Database& db, Launcher& launcher, const BootSeriesRequest& request,
                                 const Progress& progress);

} // namespace bb
