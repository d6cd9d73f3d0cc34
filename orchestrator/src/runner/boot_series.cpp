#include "runner/boot_series.h"

#include "runner/guest_image.h"
#include "runner/quiet_sample.h"
#include "runner/single_boot.h"
#include "store/boot_store.h"
#include "store/database_id.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/units.h"
#include "vm/firmware.h"

#include <fmt/format.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
std::string describe(const BootRecord& boot) {
    if (boot.params_not_applied && boot.outcome == BootOutcome::Ok) {
        return fmt::format("warning: {} (stored, not used in statistics)",
                           *boot.params_not_applied);
    }
    if (boot.boot_seconds && boot.outcome == BootOutcome::Ok) {
        return fmt::format("{} to marker", format_seconds(*boot.boot_seconds));
    }
    return fmt::format("{}: {}", to_string(boot.outcome), boot.outcome_reason);
}
} // namespace

BootSeriesResult run_boot_series(Database& db, Launcher& launcher,
                                 const BootSeriesRequest& request,
                                 const BootSeriesProgress& progress) {
    if (request.repeats < 1) {
        throw Error("-n must be at least 1");
    }
    QemuSpec spec = request.spec;
    if (!fs::exists(spec.kernel)) {
        throw Error("kernel not found: " + spec.kernel.string());
    }
    // qemu would start and sit silent on an empty image; say what is wrong instead.
    std::error_code size_error;
    if (fs::is_regular_file(spec.kernel) && fs::file_size(spec.kernel, size_error) == 0 &&
        !size_error) {
        throw Error("kernel image is empty: " + spec.kernel.string());
    }
    std::optional<Firmware> firmware;
    if (request.firmware) {
        firmware = resolve_firmware(*request.firmware, spec.arch);
        spec.firmware = firmware->path;
    }
    std::string initrd_sha256;
    if (request.initrd) {
        if (!fs::exists(*request.initrd)) {
            throw Error("initrd not found: " + request.initrd->string());
        }
        spec.initrd = *request.initrd;
    } else {
        const Initramfs image =
            prepare_guest_image(spec.arch, request.workload_script, spec.kernel, request.programs);
        spec.initrd = image.path;
        progress.note(fmt::format("initramfs {} ({})", image.path.string(),
                                  image.cache_hit ? "cached" : "built"));
    }
    initrd_sha256 = sha256_file(*spec.initrd);
    const std::string kernel_sha256 = sha256_file(spec.kernel);

    BootStore store(db);
    const HostFacts host = request.host ? *request.host : read_host_facts();
    const long long host_id = store.ensure_host(host, request.host_libvirt_uri);

    if (request.accel == AccelRequest::Auto && kvm_impossible_reason(spec.arch, host).empty()) {
        progress.status("probing KVM with a real boot (cached per host once done)...");
    }
    BootSeriesResult result;
    result.accel = choose_accel(request.accel, spec, host, host_id, store, launcher, 10,
                                request.reprobe);
    spec.accel = result.accel.accel;
    progress.note(fmt::format("accelerator: {} ({})", to_string(spec.accel), result.accel.reason));

    RunStart start;
    start.mode = "boot";
    start.command_line = request.command_line;
    result.run_id = store.begin_run(host_id, start);
    launcher.set_run(result.run_id, database_id(db));
    result.run_status = "done";
    for (int repeat = 0; repeat < request.repeats; ++repeat) {
        if (interrupted()) {
            result.run_status = "interrupted";
            break;
        }
        const std::string label = fmt::format("boot {}/{}", repeat + 1, request.repeats);
        const auto quiet = gate_sample(request.quiet, !request.host, progress.status);
        if (quiet && !wait_note(request.quiet, *quiet, label).empty()) {
            progress.note("  " + wait_note(request.quiet, *quiet, label));
        }
        if (quiet && quiet->stops(request.quiet)) {
            result.run_status = quiet->interrupted ? "interrupted" : "failed";
            if (!quiet->interrupted) {
                result.stop_reason = quiet_stop_reason(request.quiet, *quiet, label);
            }
            break;
        }
        progress.status(fmt::format("{} ({} {}, {})", label, to_string(spec.arch),
                                    spec.kernel.filename().string(), to_string(spec.accel)));
        BootRecord boot = boot_once(spec, request.limits, launcher);
        record_quiet(boot, request.quiet, quiet);
        boot.run_id = result.run_id;
        boot.host_id = host_id;
        boot.repeat_index = repeat;
        boot.kernel_sha256 = kernel_sha256;
        boot.initrd_sha256 = initrd_sha256;
        boot.build_key = request.build_key;
        boot.accel_reason = result.accel.reason;
        if (firmware) {
            boot.firmware_name = firmware->name;
            boot.firmware_sha256 = firmware->sha256;
        }
        result.boot_ids.push_back(store.insert_boot(boot));
        progress.note(fmt::format("  boot {}/{}: {}", repeat + 1, request.repeats, describe(boot)));
        boot.console_log.clear();
        const bool was_interrupted = boot.outcome == BootOutcome::InfraError && interrupted();
        result.boots.push_back(std::move(boot));
        if (was_interrupted) {
            result.run_status = "interrupted";
            break;
        }
    }
    store.finish_run(result.run_id, result.run_status);
    return result;
}

} // namespace bb
