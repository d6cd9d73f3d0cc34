#include "pipeline/experiment_runner.h"

#include "experiment/matrix.h"
#include "pipeline/boot_lanes.h"
#include "pipeline/failed_run.h"
#include "pipeline/nested_boot.h"
#include "pipeline/precision_repeats.h"
#include "pipeline/quiet_sample.h"
#include "pipeline/run_artifacts.h"
#include "pipeline/run_choice.h"
#include "pipeline/run_execution.h"
#include "pipeline/sample_plan.h"
#include "pipeline/sample_recorder.h"
#include "pipeline/sample_scheduler.h"
#include "pipeline/single_boot.h"
#include "store/boot_store.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/file_lock.h"
#include "util/interrupt.h"
#include "util/monotonic_clock.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <set>

// The four stages of a run (docs/architecture.md, "A sample's way"): plan (samples_to_boot),
// prepare (run_artifacts.h), execute (sample_scheduler.h) and record (sample_recorder.h).

namespace bb {

namespace {
// The cells `--only` and the include/exclude rules leave; a nested cell cannot go to a fleet.
std::vector<Cell> cells_to_run(const Experiment& experiment, const RunOptions& options,
                               const std::vector<FleetHost>& fleet) {
    std::vector<Cell> cells = restrict_cells(experiment, expand_matrix(experiment), options.only);
    if (cells.empty()) {
        throw Error(experiment.file_name + (options.only.empty()
                                                ? ": include/exclude rules leave no cell to run"
                                                : ": --only leaves no cell to run"));
    }
    const bool nested = std::any_of(cells.begin(), cells.end(), [](const Cell& cell) {
        return cell.topology == Topology::Nested;
    });
    if (nested && !fleet.empty()) {
        throw Error(experiment.file_name + ": topology nested runs on this machine only (its L1 "
                                           "machine options have no libvirt form); run it "
                                           "without hosts: or --hosts");
    }
    return cells;
}

void announce_plan(const Experiment& experiment, size_t cells, const RunReport& report,
                   const QuietSettings& quiet, const RunProgress& progress) {
    const std::string repeats_text =
        experiment.until
            ? fmt::format("{}-{} repeats (until the median of {} is within ±{:.1f} "
                          "%; first",
                          experiment.repeats, experiment.max_repeats,
                          experiment.until->endpoint.label(), experiment.until->ci_halfwidth * 100)
            : fmt::format("{} repeats =", experiment.repeats);
    const std::string warmup_text =
        report.samples_warmup == 0
            ? ""
            : fmt::format(" after {} warm-up boot(s), not used", report.samples_warmup);
    progress.note(fmt::format("{}: {} cells x {} {} samples{}{}, seed {}{}", experiment.name, cells,
                              repeats_text, report.samples_total, experiment.until ? ")" : "",
                              warmup_text, report.seed,
                              report.resumed ? fmt::format(", resuming run {} ({} stored)",
                                                           report.run_id, report.samples_skipped)
                                             : ""));
    if (quiet.wait) {
        progress.note(fmt::format("quiet-host gate: before each sample, wait while the foreign "
                                  "CPU load is above {:.2f}, up to {}, then {}",
                                  quiet.max_load, format_duration(quiet.max_wait_s),
                                  to_string(quiet.on_timeout)));
    }
}

BootLanes open_lanes(const RunArtifacts& artifacts, const std::vector<Cell>& cells,
                     const std::vector<FleetHost>& fleet, const RunOptions& options,
                     BootStore& store, const RunProgress& progress) {
    int max_smp = 1;
    for (const auto& cell : cells) {
        max_smp = std::max(max_smp, cell.smp.value_or(2));
    }
    const QemuSpec probe_spec = artifacts.spec_for(cells.front());
    const BootLanes::Setup setup{probe_spec, max_smp, options.slots, store, progress.note};
    return fleet.empty() ? BootLanes::local(setup) : BootLanes::fleet(fleet, setup);
}

long long begin_or_reopen_run(BootStore& store, long long host_id, long long experiment_id,
                              const Experiment& experiment, const RunOptions& options,
                              const RunReport& report) {
    if (report.resumed) {
        store.reopen_run(report.run_id);
        return report.run_id;
    }
    RunStart start;
    start.experiment_id = experiment_id;
    start.mode = options.mode;
    start.seed = static_cast<long long>(report.seed);
    start.command_line = options.command_line;
    if (experiment.analysis) {
        start.analysis_json = analysis_to_json(*experiment.analysis).dump();
    }
    return store.begin_run(host_id, start);
}

void add_counts(RunReport& report, const RecordCounts& counts, const ScheduleResult& executed) {
    report.samples_total = report.samples_skipped + executed.planned - report.samples_warmup;
    report.samples_run = counts.stored;
    report.samples_failed = counts.failed;
    report.samples_infra_failed = counts.infra_failed;
    report.samples_contaminated = counts.loaded;
    report.samples_waited = executed.waited;
    report.quiet_wait_seconds = executed.quiet_wait_seconds;
    report.hosts_lost = executed.hosts_lost;
    report.samples_requeued = executed.requeued;
}

// Ends the run: its status stored, its summary printed; a gate that stopped it is an error
// that says how to go on.
void finish_run(BootStore& store, const Experiment& experiment, const ScheduleResult& executed,
                RunReport& report, double seconds, const RunProgress& progress) {
    report.status = finished_status(executed);
    store.finish_run(report.run_id, report.status);
    progress.note(fmt::format(
        "run {} {}: {} samples booted{}, {} failed, {} loaded, {} already "
        "stored; {:.0f} s{}",
        report.run_id, to_string(report.status), report.samples_run,
        report.samples_warmup == 0 ? ""
                                   : fmt::format(" ({} warm-up planned)", report.samples_warmup),
        report.samples_failed, report.samples_contaminated, report.samples_skipped, seconds,
        report.samples_waited == 0
            ? ""
            : fmt::format("; {} sample(s) waited {} in all for a quiet host", report.samples_waited,
                          format_duration(report.quiet_wait_seconds))));
    // Why each cell of a `repeats: {until: ...}` run stopped was noted when it stopped (and
    // again on a resume, which decides every cell afresh); it is in run_cells and the summary.
    if (!executed.quiet_stop.empty()) {
        throw RuntimeFailure(fmt::format("{}; run {} is marked failed, its {} sample(s) are "
                                         "stored: `bootbench run {} --resume {}` boots the rest "
                                         "once the host is quiet",
                                         executed.quiet_stop, report.run_id,
                                         report.samples_skipped + report.samples_run,
                                         experiment.file_name, report.run_id));
    }
}

} // namespace

RunReport run_experiment(Database& db, const Experiment& experiment, const RunOptions& options,
                         const RunProgress& progress) {
    if (options.warmup) {
        require_warmup_in_range(*options.warmup);
    }
    const std::vector<FleetHost>& fleet = options.hosts.empty() ? experiment.hosts : options.hosts;
    const std::vector<Cell> cells = cells_to_run(experiment, options, fleet);
    BootStore store(db);
    const long long host_id = store.ensure_host(read_host_facts());
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
    const std::set<std::pair<std::string, int>> stored =
        report.resumed ? store.stored_samples(report.run_id)
                       : std::set<std::pair<std::string, int>>{};
    std::vector<SampleRef> todo = samples_to_boot(cells, experiment.repeats, report.seed,
                                                  experiment.order == RunOrder::Shuffled, stored);
    report.samples_total = static_cast<int>(cells.size()) * experiment.repeats;
    report.samples_skipped = report.samples_total - static_cast<int>(todo.size());
    std::vector<SampleRef> warmups =
        warmup_samples(cells, options.warmup.value_or(experiment.warmup), todo, stored);
    report.samples_warmup = static_cast<int>(warmups.size());
    todo.insert(todo.begin(), warmups.begin(), warmups.end());
    const QuietSettings quiet = with_overrides(experiment.quiet, options.quiet);
    announce_plan(experiment, cells.size(), report, quiet, progress);

    const RunEnvironment* given = options.environment;
    const RunArtifacts artifacts =
        given != nullptr ? given->prepare(cells)
                         : prepare_run_artifacts(db, experiment, cells, options.build_jobs,
                                                 {progress.status, progress.note});
    report.builds = static_cast<int>(artifacts.kernels.size());
    report.builds_cached = artifacts.kernels_cached;
    BootLanes lanes = given != nullptr
                          ? given->open_lanes(artifacts, cells)
                          : open_lanes(artifacts, cells, fleet, options, store, progress);
    report.run_id = begin_or_reopen_run(store, host_id, experiment_id, experiment, options, report);
    lanes.set_run(report.run_id);

    SampleRecorder recorder(
        store, report.run_id, experiment, cells, quiet,
        {progress.note, [&progress](const StoredSample& sample) { progress.sample(sample.line); },
         nullptr});
    PrecisionRepeats precision(experiment, cells, store, report.seed);
    RoundPlanner& rounds = options.rounds != nullptr ? *options.rounds : precision;
    // The lanes' load windows open with the work, after the kernels were built: a window that
    // spanned a build of minutes would dilute a foreign load that began just before the boot.
    const RunExecution execution{experiment, cells,  artifacts,     lanes,    quiet,
                                 recorder,   rounds, report.run_id, progress, nullptr};
    const double started = monotonic_seconds();
    const ScheduleResult executed = execute_run(execution, todo, report.samples_skipped);
    add_counts(report, recorder.counts(), executed);
    if (!executed.failure.empty()) {
        end_failed_run(db, report.run_id, executed.failure, progress.note,
                       fmt::format("bootbench run FILE --resume {}", report.run_id));
    }
    finish_run(store, experiment, executed, report, monotonic_seconds() - started, progress);
    return report;
}

} // namespace bb
