#include "runner/experiment_runner.h"

#include "console/metric_extractor.h"
#include "experiment/matrix.h"
#include "runner/accel_selection.h"
#include "runner/boot_lanes.h"
#include "runner/experiment_kernels.h"
#include "runner/guest_image.h"
#include "runner/nested_boot.h"
#include "runner/nested_image.h"
#include "runner/precision_repeats.h"
#include "runner/quiet_sample.h"
#include "runner/run_choice.h"
#include "runner/single_boot.h"
#include "store/boot_store.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/file_lock.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/monotonic_clock.h"
#include "util/units.h"
#include "vm/firmware.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <random>
#include <thread>

namespace bb {

namespace fs = std::filesystem;

namespace {
constexpr int k_failed_run_mark_wait_ms = 15'000;

std::optional<NestedImage> prepare_nested(const Experiment& experiment,
                                          const std::vector<Cell>& cells,
                                          const std::function<void(const std::string&)>& note) {
    if (std::none_of(cells.begin(), cells.end(),
                     [](const Cell& cell) { return cell.topology == Topology::Nested; })) {
        return std::nullopt;
    }
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
    NestedImage nested = prepare_nested_image(request, note);
    note(fmt::format("L1 image: {} libraries from {} arm64 packages, L2 {} ({}){}",
                     nested.libraries, nested.debs.size(), nested.l2_kernel.filename().string(),
                     to_string(request.l2.firmware_mode),
                     nested.initramfs.cache_hit ? ", cached" : ""));
    return nested;
}

// Marks the run failed — waiting longer than usual for the database, which has just failed
// once — and throws the runtime failure that ends the process.
[[noreturn]] void end_failed_run(Database& db, long long run_id, const std::string& failure,
                                 const std::function<void(const std::string&)>& note) {
    note(fmt::format("stopped: storing a sample failed: {}; every guest was stopped, marking "
                     "run {} failed",
                     failure, run_id));
    std::string marked = fmt::format("run {} is marked failed", run_id);
    try {
        db.sql().setBusyTimeout(k_failed_run_mark_wait_ms);
        BootStore(db).finish_run(run_id, "failed");
    } catch (const std::exception& e) {
        marked = fmt::format("run {} could not be marked failed ({}) and still says running",
                             run_id, e.what());
    }
    throw RuntimeFailure(fmt::format("storing a sample failed: {}. {}; the samples stored "
                                     "before are kept: once the database is writable again, "
                                     "`bootbench run FILE --resume {}` boots the rest",
                                     failure, marked, run_id));
}

} // namespace

RunReport run_experiment(Database& db, const Experiment& experiment, const RunOptions& options,
                         const RunProgress& progress) {
    const std::vector<Cell> cells =
        restrict_cells(experiment, expand_matrix(experiment), options.only);
    if (cells.empty()) {
        throw Error(experiment.file_name + (options.only.empty()
                                                ? ": include/exclude rules leave no cell to run"
                                                : ": --only leaves no cell to run"));
    }
    const std::vector<FleetHost>& fleet = options.hosts.empty() ? experiment.hosts : options.hosts;
    if (!fleet.empty() && std::any_of(cells.begin(), cells.end(), [](const Cell& cell) {
            return cell.topology == Topology::Nested;
        })) {
        throw Error(experiment.file_name + ": topology nested runs on this machine only (its L1 "
                                           "machine options have no libvirt form); run it "
                                           "without hosts: or --hosts");
    }
    BootStore store(db);
    const HostFacts host = read_host_facts();
    const long long host_id = store.ensure_host(host);
    const long long experiment_id = store.ensure_experiment(experiment.name, experiment.text);

    RunReport report;
    report.seed = choose_seed(store, experiment, options);
    // Held until the run ends: a second process on the same run stops here, not mid-run.
    const FileLock run_lock(run_lock_path(db.path(), experiment.name, report.seed, options.mode),
                            fmt::format("a run of {} with seed {} on {}", experiment.name,
                                        report.seed, db.path().string()));
    if (auto previous =
            find_resumable_run(store, experiment, experiment_id, report.seed, options)) {
        report.run_id = *previous;
        report.resumed = true;
    }
    const auto already = report.resumed ? store.stored_samples(report.run_id)
                                        : std::set<std::pair<std::string, int>>{};
    const auto order = schedule_order(cells, experiment.repeats, report.seed,
                                      experiment.order == RunOrder::Shuffled);
    std::vector<std::pair<size_t, int>> todo;
    for (const auto& sample : order) {
        if (!already.count({cells[sample.first].cell_key, sample.second})) {
            todo.push_back(sample);
        }
    }
    report.samples_total = static_cast<int>(order.size());
    report.samples_skipped = report.samples_total - static_cast<int>(todo.size());
    const std::string repeats_text =
        experiment.until
            ? fmt::format("{}-{} repeats (until the median of {} is within ±{:.1f} "
                          "%; first",
                          experiment.repeats, experiment.max_repeats,
                          experiment.until->endpoint.label(), experiment.until->ci_halfwidth * 100)
            : fmt::format("{} repeats =", experiment.repeats);
    progress.note(fmt::format("{}: {} cells x {} {} samples{}, seed {}{}", experiment.name,
                              cells.size(), repeats_text, report.samples_total,
                              experiment.until ? ")" : "", report.seed,
                              report.resumed ? fmt::format(", resuming run {} ({} stored)",
                                                           report.run_id, report.samples_skipped)
                                             : ""));

    const QuietSettings quiet = with_overrides(experiment.quiet, options.quiet);
    if (quiet.wait) {
        progress.note(fmt::format("quiet-host gate: before each sample, wait while the foreign "
                                  "CPU load is above {:.2f}, up to {}, then {}",
                                  quiet.max_load, format_duration(quiet.max_wait_s),
                                  to_string(quiet.on_timeout)));
    }

    // Kernels: each distinct build once (a cmdline-only axis needs none beyond the first).
    ExperimentKernels built =
        build_experiment_kernels(db, cells, options.build_jobs, {progress.status, progress.note});
    std::map<std::string, BuiltKernel>& kernels = built.by_build_id;
    report.builds = static_cast<int>(kernels.size());
    report.builds_cached = built.cached;
    if (interrupted()) {
        throw Interrupted("interrupted while building; nothing was booted");
    }

    const Arch arch = experiment.kernel.arch;
    // One image per kernel: a modular kernel brings its own modules into the guest.
    for (auto& [build_id, kernel] : kernels) {
        const Initramfs image = prepare_guest_image(arch, experiment.guest.workload, kernel.image,
                                                    experiment.guest.programs);
        kernel.initrd = image.path;
        kernel.initrd_sha256 = sha256_file(image.path);
    }
    const std::optional<NestedImage> nested = prepare_nested(experiment, cells, progress.note);
    const std::string nested_sha256 = nested ? sha256_file(nested->initramfs.path) : "";
    std::map<std::string, Firmware> firmware;
    for (const auto& cell : cells) {
        if (cell.firmware && !firmware.count(*cell.firmware)) {
            firmware.emplace(*cell.firmware, resolve_firmware(*cell.firmware, arch));
        }
    }

    auto spec_for = [&](const Cell& cell) {
        QemuSpec spec;
        spec.arch = arch;
        spec.kernel = kernels.at(cell.build_id).image;
        spec.initrd = kernels.at(cell.build_id).initrd;
        spec.machine = cell.machine;
        spec.cpu = cell.cpu;
        spec.smp = cell.smp.value_or(2);
        spec.memory_mb = cell.memory_mb.value_or(1024);
        if (cell.topology == Topology::Nested) {
            spec.initrd = nested->initramfs.path;
            spec.machine = cell.machine.empty() ? k_l1_machine : cell.machine;
            spec.memory_mb = cell.memory_mb.value_or(k_l1_memory_mb);
        }
        if (cell.firmware) {
            spec.firmware = firmware.at(*cell.firmware).path;
        }
        spec.cmdline = cell.cmdline;
        return spec;
    };

    int max_smp = 1;
    for (const auto& cell : cells) {
        max_smp = std::max(max_smp, cell.smp.value_or(2));
    }
    const QemuSpec probe_spec = spec_for(cells.front());
    const BootLanes::Setup lane_setup{probe_spec, max_smp, options.slots, store, progress.note};
    BootLanes lanes =
        fleet.empty() ? BootLanes::local(lane_setup) : BootLanes::fleet(fleet, lane_setup);
    const bool by_host = lanes.hosts().size() > 1 || !fleet.empty();

    if (report.resumed) {
        store.reopen_run(report.run_id);
    } else {
        RunStart start;
        start.experiment_id = experiment_id;
        start.mode = options.mode;
        start.seed = static_cast<long long>(report.seed);
        start.command_line = options.command_line;
        if (experiment.analysis) {
            start.analysis_json = analysis_to_json(*experiment.analysis).dump();
        }
        report.run_id = store.begin_run(host_id, start);
    }
    lanes.set_run(report.run_id);

    MonitorLimits limits;
    limits.timing_marker = experiment.guest.timing_marker;
    limits.end_marker = experiment.guest.end_marker;
    limits.total_timeout_s = experiment.timeout_s;
    limits.silence_timeout_s = experiment.silence_s;
    const MonitorLimits l1_limits = nested_limits(limits);
    std::vector<LineExtractor> extractors;
    for (const auto& metric : experiment.guest.metrics) {
        extractors.push_back({metric.name, metric.regex, metric.unit, metric.histogram,
                              metric.scale, metric.bucket});
    }

    // The queue: samples go to whichever lane is free; a lost host's sample comes back to the
    // front so another host boots it next.
    std::mutex mutex; // guards the queue, the store and the counters below
    std::condition_variable queue_changed;
    std::deque<std::pair<size_t, int>> pending(todo.begin(), todo.end());
    int in_flight_count = 0;
    int finished = 0;
    double busy_seconds = 0;
    std::vector<int> running(lanes.hosts().size(), 0); // guests running per host
    std::vector<bool> host_dead(lanes.hosts().size(), false);
    std::map<size_t, std::string> in_flight; // lane -> cell key
    std::string quiet_stop;                  // why the gate stopped the run (on_timeout: stop)
    PrecisionRepeats precision(experiment, cells, store, report.seed);
    int planned = static_cast<int>(todo.size());
    // Under the mutex, once every lane is idle: the next round of the cells still imprecise.
    auto plan_next_round = [&] {
        const auto round = precision.next_round(report.run_id, progress.note);
        pending.insert(pending.end(), round.begin(), round.end());
        planned += static_cast<int>(round.size());
        report.samples_total += static_cast<int>(round.size());
        queue_changed.notify_all();
    };
    const double started = monotonic_seconds();
    auto update_status = [&] {
        const int remaining = planned - finished;
        std::string eta = "?";
        if (finished > 0) {
            eta = format_duration(busy_seconds / finished * remaining /
                                  static_cast<double>(lanes.lanes().size()));
        }
        std::string current;
        for (const auto& [lane, key] : in_flight) {
            current += (current.empty() ? "" : " | ") + key;
        }
        progress.status(fmt::format("[{}/{}] {} failed, ETA {} — {}",
                                    finished + report.samples_skipped, report.samples_total,
                                    report.samples_failed, eta, current));
    };

    // A sample another process stored already (see SampleAlreadyStored) is not a failure of this
    // run: it is reported and not stored twice.
    auto store_sample = [&](const BootRecord& boot) {
        try {
            store.insert_boot(boot);
            return true;
        } catch (const SampleAlreadyStored& e) {
            progress.note(fmt::format("warning: {}; this boot is not stored twice", e.what()));
            return false;
        }
    };
    auto boot_samples = [&](size_t lane_index) {
        const BootLane& lane = lanes.lanes()[lane_index];
        const LaneHost& host_of_lane = lanes.hosts()[lane.host];
        for (;;) {
            std::pair<size_t, int> sample;
            int concurrency = 0;
            {
                std::unique_lock lock(mutex);
                // An empty queue is not the end while other lanes still boot: a lost host's
                // samples may come back.
                queue_changed.wait(lock, [&] {
                    return !pending.empty() || in_flight_count == 0 || interrupted() ||
                           host_dead[lane.host] || !quiet_stop.empty();
                });
                const bool stopping = interrupted() || host_dead[lane.host] || !quiet_stop.empty();
                if (pending.empty() && in_flight_count == 0 && !stopping) {
                    plan_next_round();
                }
                if (pending.empty() || stopping) {
                    return;
                }
                sample = pending.front();
                pending.pop_front();
                ++in_flight_count;
                in_flight[lane_index] = cells[sample.first].cell_key;
                update_status();
            }
            const Cell& cell = cells[sample.first];
            const std::string label = fmt::format("{} r{}", cell.cell_key, sample.second);
            // Waits outside the lock (the other lanes go on booting), prints under it.
            const auto verdict = gate_sample(quiet, host_of_lane.connection == nullptr,
                                             [&](const std::string& text) {
                                                 std::lock_guard lock(mutex);
                                                 progress.status(label + ": " + text);
                                             });
            {
                std::lock_guard lock(mutex);
                if (verdict && !wait_note(quiet, *verdict, label).empty()) {
                    progress.note(wait_note(quiet, *verdict, label));
                    report.samples_waited += 1;
                    report.quiet_wait_seconds += verdict->waited_s;
                }
                if ((verdict && verdict->stops(quiet)) || !quiet_stop.empty()) {
                    // Not booted: back to the queue, which --resume boots.
                    pending.push_front(sample);
                    --in_flight_count;
                    in_flight.erase(lane_index);
                    if (verdict && !verdict->interrupted && quiet_stop.empty()) {
                        quiet_stop = quiet_stop_reason(quiet, *verdict, label);
                    }
                    queue_changed.notify_all();
                    return;
                }
                concurrency = ++running[lane.host];
            }
            QemuSpec spec = spec_for(cell);
            spec.accel = host_of_lane.accel.accel;
            const bool is_nested = cell.topology == Topology::Nested;
            BootRecord boot = boot_once(spec, is_nested ? l1_limits : limits, *lane.launcher);
            record_quiet(boot, quiet, verdict);
            boot.concurrency = concurrency;
            boot.host_id = host_of_lane.host_id;
            boot.cell_key = cell.cell_key;
            boot.params_json = cell.params.dump();
            boot.repeat_index = sample.second;
            const BuiltKernel& kernel = kernels.at(cell.build_id);
            boot.kernel_sha256 = kernel.kernel_sha256;
            boot.build_key = kernel.key;
            boot.initrd_sha256 = is_nested ? nested_sha256 : kernel.initrd_sha256;
            if (is_nested) {
                add_l1_metrics(boot);
            }
            boot.accel_reason = host_of_lane.accel.reason;
            if (cell.firmware) {
                boot.firmware_name = *cell.firmware;
                boot.firmware_sha256 = firmware.at(*cell.firmware).sha256;
            }
            auto extracted = extract_metrics(boot.console_log, extractors);
            for (auto& metric : extracted.metrics) {
                boot.metrics.push_back(std::move(metric));
            }
            for (auto& bucket : extracted.histograms) {
                boot.histograms.push_back(std::move(bucket));
            }
            if (extracted.lines_cut > 0) {
                // The console is stored as always; only the metric search saw less of it.
                progress.note(fmt::format(
                    "note: {} r{}: {} console line(s) longer than {} bytes; {} bytes past that "
                    "were not searched for metrics",
                    cell.cell_key, sample.second, extracted.lines_cut, k_max_extracted_line_bytes,
                    extracted.bytes_cut));
            }
            const bool interrupted_boot = boot.outcome == BootOutcome::InfraError && interrupted();
            const std::string host_lost =
                boot.outcome == BootOutcome::InfraError ? lanes.lost(lane.host) : "";
            std::lock_guard lock(mutex);
            --in_flight_count;
            --running[lane.host];
            in_flight.erase(lane_index);
            queue_changed.notify_all();
            if (interrupted_boot) {
                return; // not a sample: it will be booted again on resume
            }
            boot.run_id = report.run_id;
            if (!host_lost.empty()) {
                // Recorded (the failure shows in reports), then booted again elsewhere.
                if (boot.outcome_reason.find(host_of_lane.label) == std::string::npos) {
                    boot.outcome_reason =
                        fmt::format("host {} stopped answering: {} ({})", host_of_lane.label,
                                    host_lost, boot.outcome_reason);
                }
                store_sample(boot);
                pending.push_front(sample);
                if (!host_dead[lane.host]) {
                    host_dead[lane.host] = true;
                    ++report.hosts_lost;
                    progress.note(fmt::format("host {} lost ({}): its samples go to the other "
                                              "hosts",
                                              host_of_lane.label, host_lost));
                }
                ++report.samples_requeued;
                queue_changed.notify_all();
                return;
            }
            store_sample(boot);
            ++finished;
            ++report.samples_run;
            busy_seconds += boot.wall_seconds;
            const bool failed = boot.outcome != BootOutcome::Ok || boot.params_not_applied;
            const bool contaminated = boot.loaded.value_or(false);
            report.samples_failed += failed ? 1 : 0;
            report.samples_infra_failed += boot.outcome == BootOutcome::InfraError ? 1 : 0;
            report.samples_contaminated += contaminated ? 1 : 0;
            if (boot.params_not_applied) {
                progress.note(fmt::format("warning: {} r{}: {} — the sample is stored but not "
                                          "used; check the parameter's name and the kernel's "
                                          "config",
                                          cell.cell_key, sample.second, *boot.params_not_applied));
            }
            progress.sample(fmt::format(
                "{} r{}{}: {}{}", cell.cell_key, sample.second,
                by_host ? " @" + host_of_lane.label : "",
                boot.outcome != BootOutcome::Ok
                    ? fmt::format("{} ({})", to_string(boot.outcome), boot.outcome_reason)
                : boot.params_not_applied ? "param-not-applied"
                                          : format_seconds(boot.boot_seconds.value_or(0)),
                contaminated ? fmt::format(" [loaded: foreign load {:.0f}%]",
                                           std::max(boot.foreign_load.value_or(0),
                                                    verdict ? verdict->load_before : 0) *
                                               100)
                             : ""));
            update_status();
        }
    };
    // A lane that cannot go on (its database write failed: locked too long, disk full) stops the
    // whole run as Ctrl-C would — every guest killed, nothing half-stored — and the run ends
    // "failed" with the reason, instead of std::terminate leaving it "running".
    std::string failure;
    auto worker = [&](size_t lane_index) {
        try {
            boot_samples(lane_index);
        } catch (const std::exception& e) {
            std::lock_guard lock(mutex);
            if (failure.empty()) {
                failure = e.what();
            }
            request_interrupt();
            queue_changed.notify_all();
        }
    };
    std::vector<std::thread> threads;
    for (size_t lane = 0; lane < lanes.lanes().size(); ++lane) {
        threads.emplace_back(worker, lane);
    }
    for (auto& thread : threads) {
        thread.join();
    }
    const bool stranded = !pending.empty() && !interrupted() && quiet_stop.empty();
    if (stranded) {
        progress.note(fmt::format("{} sample(s) not booted: every host of the fleet was lost",
                                  pending.size()));
    }
    if (!failure.empty()) {
        end_failed_run(db, report.run_id, failure, progress.note);
    }
    report.status = interrupted()                     ? "interrupted"
                    : stranded || !quiet_stop.empty() ? "failed"
                                                      : "done";
    store.finish_run(report.run_id, report.status);
    progress.note(fmt::format(
        "run {} {}: {} samples booted, {} failed, {} loaded, {} already "
        "stored; {:.0f} s{}",
        report.run_id, report.status, report.samples_run, report.samples_failed,
        report.samples_contaminated, report.samples_skipped, monotonic_seconds() - started,
        report.samples_waited == 0
            ? ""
            : fmt::format("; {} sample(s) waited {} in all for a quiet host", report.samples_waited,
                          format_duration(report.quiet_wait_seconds))));
    // Why each cell of a `repeats: {until: ...}` run stopped was noted when it stopped (and
    // again on a resume, which decides every cell afresh); it is in run_cells and the summary.
    if (!quiet_stop.empty()) {
        throw RuntimeFailure(fmt::format("{}; run {} is marked failed, its {} sample(s) are "
                                         "stored: `bootbench run {} --resume {}` boots the rest "
                                         "once the host is quiet",
                                         quiet_stop, report.run_id,
                                         report.samples_skipped + report.samples_run,
                                         experiment.file_name, report.run_id));
    }
    return report;
}

} // namespace bb
