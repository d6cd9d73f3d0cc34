#include "pipeline/boot_series.h"

#include "artifacts/guest_image.h"
#include "experiment/matrix.h"
#include "pipeline/failed_run.h"
#include "pipeline/precision_repeats.h"
#include "pipeline/quiet_sample.h"
#include "pipeline/run_execution.h"
#include "pipeline/sample_plan.h"
#include "pipeline/sample_recorder.h"
#include "pipeline/sample_scheduler.h"
#include "pipeline/single_boot.h"
#include "store/boot_store.h"
#include "store/database_id.h"
#include "store/sample_rule.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/units.h"
#include "vm/firmware.h"

#include <fmt/format.h>

namespace bb {

namespace fs = std::filesystem;

namespace {

// The series as a run of one cell: the cell boots what prepare_boot_series made, under the
// request's limits, with no axes (an empty key, no parameters) and no rounds after the first.
struct SeriesRun {
    Experiment experiment;
    std::vector<Cell> cells;
    RunArtifacts artifacts;
};

SeriesRun series_run(const BootSeriesRequest& request, const SeriesInputs& inputs) {
    SeriesRun series;
    series.experiment.guest.timing_marker = request.limits.timing_marker;
    series.experiment.guest.end_marker = request.limits.end_marker;
    series.experiment.timeout_s = request.limits.total_timeout_s;
    series.experiment.silence_s = request.limits.silence_timeout_s;
    const QemuSpec& spec = inputs.spec;
    Cell cell;
    cell.params = nlohmann::json::object();
    cell.build_id = "boot";
    cell.machine = spec.machine;
    cell.cpu = spec.cpu;
    cell.smp = spec.smp;
    cell.memory_mb = spec.memory_mb;
    cell.cmdline = spec.cmdline;
    series.artifacts.arch = spec.arch;
    BuiltKernel kernel;
    kernel.image = spec.kernel;
    kernel.key = request.build_key.value_or("");
    kernel.kernel_sha256 = inputs.kernel_sha256;
    kernel.initrd = spec.initrd.value_or(fs::path());
    kernel.initrd_sha256 = inputs.initrd_sha256;
    series.artifacts.kernels.emplace(cell.build_id, kernel);
    if (inputs.firmware) {
        cell.firmware = inputs.firmware->name;
        series.artifacts.firmware.emplace(inputs.firmware->name, *inputs.firmware);
    }
    series.cells.push_back(std::move(cell));
    return series;
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
    require_warmup_in_range(request.warmup);
    // The gate's window opens now, so that it spans the preparation below (bootbench's own
    // work, which is not foreign load) rather than an idle second before the boot.
    auto load_sources = std::make_shared<std::vector<HostLoadSource>>(1);
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

    // The stages of `bootbench run` with one cell, one lane and no shuffle.
    const SeriesRun series = series_run(request, inputs);
    BootLanes lanes = BootLanes::borrowed(
        launcher, {request.host_libvirt_uri.empty() ? "local" : request.host_libvirt_uri, host_id,
                   result.accel, nullptr, !request.host});
    auto label = [&request](const SampleRef& sample) {
        return is_warmup_repeat(sample.second)
                   ? fmt::format("warmup {}/{}", -sample.second, request.warmup)
                   : fmt::format("boot {}/{}", sample.second + 1, request.repeats);
    };
    SampleRecorder recorder(store, result.run_id, series.experiment, series.cells, request.quiet,
                            {progress.note,
                             [&](const StoredSample& stored) {
                                 result.boot_ids.push_back(stored.boot_id);
                                 BootRecord kept = stored.boot;
                                 kept.console_log.clear(); // keeps memory flat over many boots
                                 result.boots.push_back(std::move(kept));
                                 progress.note("  " + stored.line);
                             },
                             label});
    PrecisionRepeats no_more_rounds(series.experiment, series.cells, store, 0);
    const RunProgress run_progress{
        progress.status, [&progress](const std::string& line) { progress.note("  " + line); },
        nullptr};
    const RunExecution execution{series.experiment, series.cells, series.artifacts, lanes,
                                 request.quiet,     recorder,     no_more_rounds,   result.run_id,
                                 run_progress,      load_sources};
    SampleWork work = run_sample_work(execution);
    work.label = label;
    work.boot = [&, boot = work.boot](size_t lane, const SampleRef& sample, int concurrency) {
        progress.status(fmt::format("{} ({} {}, {})", label(sample), to_string(spec.arch),
                                    spec.kernel.filename().string(), to_string(spec.accel)));
        return boot(lane, sample, concurrency);
    };
    std::vector<SampleRef> todo;
    for (int warmup = 1; warmup <= request.warmup; ++warmup) {
        todo.emplace_back(0, -warmup);
    }
    for (int repeat = 0; repeat < request.repeats; ++repeat) {
        todo.emplace_back(0, repeat);
    }
    const ScheduleResult executed =
        execute_samples(schedule_lanes(lanes), request.quiet, todo, work);
    if (!executed.failure.empty()) {
        // As `run` does: marked failed, not left running (issue 48 item 15).
        end_failed_run(db, result.run_id, executed.failure, progress.note, "");
    }
    result.stop_reason = executed.quiet_stop;
    result.run_status = finished_status(executed);
    store.finish_run(result.run_id, result.run_status);
    return result;
}

} // namespace bb
