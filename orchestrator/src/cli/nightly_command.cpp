#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress_sinks.h"
#include "cli/quiet_options.h"
#include "experiment/experiment_parser.h"
#include "nightly/nightly.h"
#include "report/render_support.h"
#include "util/error.h"
#include "util/terminal.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace bb {

namespace {
struct NightlyCommandOptions {
    std::string file;
    std::string report_dir;
    double threshold_percent = 2;
    int slots = 0;
    bool json = false;
    QuietCliOptions quiet;
};

void print_json(const Experiment& experiment, const NightlyResult& result) {
    const nlohmann::json json = {
        {"experiment", experiment.name},
        {"run_id", result.run.run_id},
        {"status", std::string(to_string(result.run.status))},
        {"baseline_run", result.baseline_run ? nlohmann::json(*result.baseline_run) : nullptr},
        {"slower", result.slower},
        {"faster", result.faster},
        {"unchanged", result.unchanged},
        {"insufficient", result.insufficient},
        {"regression", result.regression()},
        {"report", result.report_path.string()}};
    std::fputs(json_document(json).c_str(), stdout);
}

constexpr const char* k_nightly_help =
    R"(Run an experiment as tonight's nightly: a fresh seed, every cell compared with the
earlier nightlies of the same experiment, a Markdown report written, exit status 1 when
any cell got significantly slower by more than --threshold percent. Two nightlies of one
experiment never overlap (a lock).

The night is the unit (docs/nightly.md, "The nightly verdict"): when at least 5 of the last 10
finished nights hold a cell, tonight's median is tested against their medians (Student's prediction
interval on the log scale, α 0.05: an A/A night is called slower 2.6 % of the time in the
calibration). With fewer, tonight's boots are compared with the last good night's, boots as
the unit (Hodges-Lehmann shift, exact Mann-Whitney): that test ignores the night's own
variation and flagged 7 of 9 nights of a real A/A history here, so treat its "slower" as a
hint until the history is 5 nights long.
Before each sample it waits while the host is busy with other work (the experiment's quiet:
key, or the --quiet-* options): a night shares its machine with backups and package updates.

Examples:
  bootbench nightly configs/quick.yaml
  bootbench nightly configs/quick.yaml --threshold 5 --report-dir /srv/bootbench/reports

Scheduling (docs/nightly.md):
  cron:    30 1 * * *  cd /opt/bootbench && ./build/bootbench nightly configs/quick.yaml
  systemd: a bootbench-nightly.service + bootbench-nightly.timer (OnCalendar=*-*-* 01:30)
)";
} // namespace

void add_nightly_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<NightlyCommandOptions>();
    CLI::App* cmd = app.add_subcommand("nightly", "Run + compare with the earlier nightlies");
    cmd->footer(k_nightly_help);
    cmd->add_option("file", options->file, "experiment YAML file")->required();
    cmd->add_option("--report-dir", options->report_dir,
                    "where the Markdown report goes (default: $CACHE/nightly/<experiment>)");
    cmd->add_option("--threshold", options->threshold_percent,
                    "a slowdown must exceed this many percent to fail the night")
        ->check(number_in(0, 1000))
        ->capture_default_str();
    cmd->add_option("--slots", options->slots, "parallel guests (default: as many as fit)");
    cmd->add_flag("--json", options->json, "print the night's summary as JSON");
    add_quiet_options(*cmd, options->quiet);
    cmd->callback([options, &global, &exit_status] {
        const Experiment experiment = load_experiment(options->file);
        const QuietOverrides quiet = quiet_overrides(options->quiet);
        StatusLine status;
        status.set_quiet(global.quiet);
        const RunProgress progress = run_progress(status, global);
        NightlyOptions nightly;
        nightly.run.slots = options->slots;
        nightly.run.quiet = quiet;
        nightly.run.command_line = global.command_line;
        nightly.report_dir = options->report_dir;
        nightly.threshold = options->threshold_percent / 100;
        Database db(global.db_path());
        const NightlyResult result = run_nightly(db, experiment, nightly, progress);
        status.clear();
        if (options->json) {
            print_json(experiment, result);
        } else if (result.baseline_run) {
            std::printf("nightly %s: run %lld vs run %lld: %d slower, %d faster, %d unchanged, "
                        "%d insufficient\n",
                        experiment.name.c_str(), result.run.run_id, *result.baseline_run,
                        result.slower, result.faster, result.unchanged, result.insufficient);
        } else {
            std::printf("nightly %s: run %lld is the first good nightly (the baseline)\n",
                        experiment.name.c_str(), result.run.run_id);
        }
        if (!options->json) {
            std::printf("report: %s\n", result.report_path.c_str());
        }
        if (result.run.status != RunStatus::Done) {
            exit_status = k_exit_interrupted;
        } else {
            exit_status = result.regression() ? k_exit_verdict : k_exit_ok;
        }
    });
}

} // namespace bb
