#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress_sinks.h"
#include "cli/quiet_options.h"
#include "completion/value_kind.h"
#include "experiment/axis_table.h"
#include "experiment/experiment_parser.h"
#include "experiment/hosts_parser.h"
#include "experiment/matrix.h"
#include "pipeline/experiment_files.h"
#include "pipeline/experiment_runner.h"
#include "report/run_summary.h"
#include "report/verdict.h"
#include "store/boot_store.h"
#include "util/error.h"
#include "util/terminal.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <optional>

namespace bb {

namespace {
struct RunCommandOptions {
    std::string file;
    int slots = 0;
    long long resume = 0;
    long long seed = -1;
    int jobs = 0;
    int warmup = -1; // -1: the file's warmup:
    bool json = false;
    bool validate = false;
    std::vector<std::string> only;
    std::string hosts; // fleet file
    QuietCliOptions quiet;
};

constexpr const char* k_run_help =
    R"(Run an experiment file: build every kernel the matrix needs (once; a cmdline-only
axis adds no build), boot every cell `repeats` times in a seeded shuffled interleaving
across CPU slots (each guest pinned to its vCPUs + 1 host CPUs, never oversubscribed), store
every sample with its concurrency and the foreign host load during it, print per-cell results
and, when the file declares an analysis: (docs/experiments.md#analysis), the verdict table.
repeats: {min, max, until: {ci_halfwidth: 2%}} boots a cell again until its median is that
precise (at least min, at most max rounds); the summary says why each cell stopped.
Before each sample it waits while the host is busy with other work: the experiment's quiet:
key, or --quiet-max-load, --quiet-max-wait, --quiet-on-timeout and --no-quiet-wait.

warmup: N (or --warmup N) boots each cell N times first, on every run and resume: stored,
named "warmup" in the lines, never used by a statistic (the first boots after a pause read
slow; docs/reliability.md).

Re-running the same experiment with the same seed (or --resume RUN) skips the samples
already stored. Ctrl-C stops the guests and marks the run interrupted; a killed bootbench
leaves no qemu behind (they die with it) and resumes the same way.

The file format is documented in docs/experiments.md.

--hosts FILE (or the experiment's hosts: key) spreads the samples over libvirt hosts, each
with its own slots; kernels and images are uploaded to each host once. A host that stops
answering has its samples booted again elsewhere. See docs/fleet.md.

--only AXIS=V1,V2 runs the cells with those values now; the same run (same seed) picks up the
rest later, e.g. the HZ=1000 kernels on a night with time to build them.
)";

constexpr const char* k_run_examples = R"(
Examples:
  bootbench run configs/example.yaml
  bootbench run configs/srcu-storm.yaml --seed 7 --only hz=100,250   # the rest later, same seed
  bootbench run configs/example.yaml --validate        # check the file, expand the matrix, stop
  bootbench run configs/srcu-storm.yaml --slots 1 --seed 7
  bootbench run configs/srcu-storm.yaml --resume 12
  bootbench run configs/example.yaml --hosts configs/fleets/example.yaml   # libvirt hosts
)";

int run(const RunCommandOptions& options, const GlobalOptions& global) {
    const Experiment experiment = load_experiment(options.file);
    const std::vector<FleetHost> fleet =
        options.hosts.empty() ? std::vector<FleetHost>{} : load_fleet_file(options.hosts);
    const AxisRestriction only = parse_axis_restrictions(options.only);
    const QuietOverrides quiet = quiet_overrides(options.quiet);
    check_experiment_files(experiment);
    if (options.validate) {
        // --only is checked too, so a typo in it is found before any kernel is built.
        const auto cells = restrict_cells(experiment, expand_matrix(experiment), only);
        if (cells.empty()) {
            throw Error(options.file + ": --only leaves no cell to run");
        }
        if (options.json) { // --json means JSON, here too (issue 48 item 15)
            const nlohmann::json verdict = {{"file", options.file},
                                            {"valid", true},
                                            {"experiment", experiment.name},
                                            {"cells", cells.size()}};
            std::printf("%s\n", verdict.dump(2).c_str());
            return 0;
        }
        std::printf("%s: ok\n", options.file.c_str());
        return 0;
    }
    StatusLine status;
    status.set_quiet(global.quiet);
    const RunProgress progress = run_progress(status, global);
    RunOptions run_options;
    run_options.slots = options.slots;
    if (options.resume > 0) {
        run_options.resume_run = options.resume;
    }
    if (options.seed >= 0) {
        run_options.seed = static_cast<std::uint64_t>(options.seed);
    }
    run_options.build_jobs = options.jobs;
    if (options.warmup >= 0) {
        run_options.warmup = options.warmup;
    }
    run_options.only = only;
    run_options.hosts = fleet;
    run_options.quiet = quiet;
    run_options.command_line = global.command_line;
    Database db(global.db_path());
    const RunReport report = run_experiment(db, experiment, run_options, progress);
    status.clear();
    const auto results = load_run_results(db, report.run_id);
    // The declared analysis' verdict, the one answer the run was made for.
    std::optional<VerdictTable> verdict;
    if (BootStore(db).run_analysis(report.run_id)) {
        verdict = compute_verdict(db, report.run_id);
    }
    if (options.json) {
        const nlohmann::json verdict_value =
            verdict ? verdict_json(*verdict) : nlohmann::json(nullptr); // null: none declared
        std::printf("%s\n", nlohmann::json{{"run_id", report.run_id},
                                           {"experiment", experiment.name},
                                           {"status", std::string(to_string(report.status))},
                                           {"seed", report.seed},
                                           {"samples", report.samples_total},
                                           {"failed", report.samples_failed},
                                           {"hosts_lost", report.hosts_lost},
                                           {"samples_requeued", report.samples_requeued},
                                           {"cells", run_summary_json(results)},
                                           {"verdict", verdict_value}}
                                .dump(2)
                                .c_str());
    } else {
        std::printf("%s — run %lld (%s, seed %llu)\n%s", experiment.name.c_str(), report.run_id,
                    std::string(to_string(report.status)).c_str(),
                    static_cast<unsigned long long>(report.seed),
                    render_run_summary(results).c_str());
        if (verdict) { // last: the one answer the run was made for
            std::printf("\n%s", render_verdict(*verdict).c_str());
        }
    }
    if (report.status == RunStatus::Interrupted) {
        return k_exit_interrupted;
    }
    // As `boot`: 3 when a guest could not be booted at all, 1 when a kernel failed its boot.
    if (report.samples_infra_failed > 0) {
        return k_exit_runtime;
    }
    // Not 1 for a verdict of "B slower": an experiment is often made to show just that (the
    // main job's before/stock); `report --view verdict` gates on it (README, "Exit status").
    return report.samples_failed > 0 ? k_exit_verdict : k_exit_ok;
}
} // namespace

void add_run_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<RunCommandOptions>();
    CLI::App* cmd =
        app.add_subcommand("run", "Run an experiment file (build, boot the matrix, store)");
    cmd->footer(std::string(k_run_help) + "\n" + axes_help_text() + k_run_examples);
    cmd->add_option("file", options->file, "experiment YAML file")->required();
    cmd->add_option("--slots", options->slots, "parallel guests (default: as many as fit)")
        ->check(non_negative_integer());
    cmd->add_option("--resume", options->resume, "continue this run id")
        ->type_name(k_run_value)
        ->check(non_negative_integer());
    cmd->add_option("--seed", options->seed, "shuffle seed (default: the file's, else random)")
        ->check(non_negative_integer());
    cmd->add_option("-j,--jobs", options->jobs, "make -j for kernel builds")
        ->check(non_negative_integer());
    cmd->add_option("--warmup", options->warmup,
                    "boots per cell before its repeats, stored and never used (default: the "
                    "file's warmup:, else 0)")
        ->check(integer_in(0, k_max_warmup));
    cmd->add_flag("--json", options->json, "print results as JSON");
    cmd->add_option("--only", options->only,
                    "AXIS=V1,V2: run only the cells with these values (repeatable)");
    cmd->add_flag("--validate", options->validate, "only parse and validate the file");
    cmd->add_option("--hosts", options->hosts,
                    "fleet file (hosts: [{uri: LIBVIRT-URI, slots: N}]): boot on these libvirt "
                    "hosts instead of this machine");
    add_quiet_options(*cmd, options->quiet);
    cmd->callback([options, &global, &exit_status] { exit_status = run(*options, global); });
}

} // namespace bb
