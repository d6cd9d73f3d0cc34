#include "pipeline/boot_series.h"

#include "artifacts/guest_image.h"
#include "experiment/matrix.h"
#include "pipeline/quiet_sample.h"
#include "pipeline/sample_recorder.h"
#include "pipeline/sample_scheduler.h"
#include "pipeline/single_boot.h"
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

// The series as a run's one cell: no axes, so an empty key and no parameters.
Cell series_cell() {
    Cell cell;
    cell.params = nlohmann::json::object();
    return cell;
}

} // namespace

SeriesInputs prepare_boot_series(const BootSeriesRequest& request, const Progress& progress) {
    SeriesInputs inputs;
    inputs.spec = request.spec;
    QemuSpec& spec = inputs.spec;
    if (!fs::exists(spec.kernel)) {
        throw Error("kernel not found: " + spec.kernel.string());
    }
    // qemu would start and sit silent on an empty image; say what is wrong instead.
    std::error_code size_error;
    if (fs::is_regular_file(spec.kernel) && fs::file_size(spec.kernel, size_error) == 0 &&
        !size_error) {
        throw Error("kernel image is empty: " + spec.kernel.string());
    }
    if (request.firmware) {
        inputs.firmware = resolve_firmware(*request.firmware, spec.arch);
        spec.firmware = inputs.firmware->path;
    }
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
    inputs.initrd_sha256 = sha256_file(*spec.initrd);
    inputs.kernel_sha256 = sha256_file(spec.kernel);
    return inputs;
}

BootSeriesResult run_boot_series(Database& db, Launcher& launcher, const BootSeriesRequest& request,
                                 const Progress& progress) {
    if (request.repeats < 1) {
        throw Error("-n must be at least 1");
    }
    SeriesInputs inputs = prepare_boot_series(request, progress);
    QemuSpec& spec = inputs.spec;
    BootStore store(db);
    const HostFacts host = request.host ? *request.host : read_host_facts();
    const long long host_id = store.ensure_host(host, request.host_libvirt_uri);
    if (request.accel == AccelRequest::Auto && kvm_impossible_reason(spec.arch, host).empty()) {
        progress.status("probing KVM with a real boot (cached per host once done)...");
    }
    BootSeriesResult result;
    result.accel =
        choose_accel(request.accel, spec, host, host_id, store, launcher, 10, request.reprobe);
    spec.accel = result.accel.accel;
    progress.note(fmt::format("accelerator: {} ({})", to_string(spec.accel), result.accel.reason));

    RunStart start;
    start.mode = "boot";
    start.command_line = request.command_line;
    result.run_id = store.begin_run(host_id, start);
    launcher.set_run(result.run_id, database_id(db));

    // The pipeline of `bootbench run` with one cell, one lane and no shuffle.
    const Experiment adhoc{};
    const std::vector<Cell> cells{series_cell()};
    auto label = [&request](const SampleRef& sample) {
        return fmt::format("boot {}/{}", sample.second + 1, request.repeats);
    };
    SampleRecorder recorder(store, result.run_id, adhoc, cells, request.quiet,
                            {progress.note,
                             [&](const StoredSample& stored) {
                                 result.boot_ids.push_back(stored.boot_id);
                                 BootRecord kept = stored.boot;
                                 kept.console_log.clear(); // keeps memory flat over many boots
                                 result.boots.push_back(std::move(kept));
                                 progress.note("  " + stored.line);
                             },
                             label});
    SampleWork work;
    work.label = label;
    work.gate = [&](size_t, const std::string&) {
        return gate_sample(request.quiet, !request.host, progress.status);
    };
    work.boot = [&](size_t, const SampleRef& sample, int) {
        progress.status(fmt::format("{} ({} {}, {})", label(sample), to_string(spec.arch),
                                    spec.kernel.filename().string(), to_string(spec.accel)));
        BootRecord boot = boot_once(spec, request.limits, launcher);
        boot.host_id = host_id;
        boot.kernel_sha256 = inputs.kernel_sha256;
        boot.initrd_sha256 = inputs.initrd_sha256;
        boot.build_key = request.build_key;
        boot.accel_reason = result.accel.reason;
        if (inputs.firmware) {
            boot.firmware_name = inputs.firmware->name;
            boot.firmware_sha256 = inputs.firmware->sha256;
        }
        return boot;
    };
    work.host_lost = [](size_t) { return std::string(); }; // its failure is the boot's outcome
    work.record = [&](BootRecord& boot, const SampleRef& sample, size_t,
                      const std::optional<QuietVerdict>& verdict) {
        return recorder.record(boot, sample, "", verdict);
    };
    work.next_round = [] { return std::vector<SampleRef>{}; };
    work.status = progress.status;
    work.note = [&progress](const std::string& line) { progress.note("  " + line); };
    std::vector<SampleRef> todo;
    for (int repeat = 0; repeat < request.repeats; ++repeat) {
        todo.emplace_back(0, repeat);
    }
    const ScheduleResult executed = execute_samples({{0, "local"}}, request.quiet, todo, work);
    if (!executed.failure.empty()) {
        throw RuntimeFailure("storing a boot failed: " + executed.failure);
    }
    result.stop_reason = executed.quiet_stop;
    result.run_status = finished_status(executed);
    store.finish_run(result.run_id, result.run_status);
    return result;
}

} // namespace bb
