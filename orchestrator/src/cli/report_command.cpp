#include "cli/commands.h"
#include "report/sample_query.h"
#include "report/table_renderer.h"
#include "store/database.h"
#include "util/error.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

namespace bb {

namespace {
struct ReportCommandOptions {
    std::string experiment;
    std::vector<long long> runs;
    std::vector<std::string> by;
    std::string metric = "boot_seconds";
    std::string format = "text";
    bool include_failed = false;
    int resamples = 10'000;
};

constexpr const char* k_report_help =
    R"(Summarize stored samples group by group: n, the median with its bootstrap 95% confidence
interval, mean ± σ and min … max. Only boots whose outcome is ok and whose foreign host load
stayed at or below 0.25 are used; the others are counted in "excluded" (failed, loaded, no
value), never averaged. --include-failed uses failed and loaded boots that have a value.

Groups: one per cell of the matrix unless --by names axes: keys of the boots' parameters
(variant, hz, smp, firmware, machine, a cmdline parameter such as
srcutree.srcu_max_nodelay_phase) or the pseudo-axes run and cell.

Metrics: boot_seconds (spawn to the timing marker; the default), guest_marker_seconds,
first_byte_seconds, banner_seconds, run_init_seconds, wall_seconds, or any name a guest
printed with BOOTBENCH-METRIC.

Formats: text (aligned, automatic units), md (Markdown), csv and json (every raw sample with
its boot id, run id, params and value, used or not).

Examples:
  bootbench report --run 12                                   every cell of run 12
  bootbench report --experiment srcu-storm --by hz,variant    all runs of an experiment
  bootbench report --run 12 --by srcutree.srcu_max_nodelay_phase
  bootbench report --run 12 --run 13 --by run,variant         two runs side by side
  bootbench report --run 12 --metric max_phase --by variant   a guest-reported metric
  bootbench report --run 12 --format csv > samples.csv        raw samples for pandas or R
  bootbench report --run 12 --format md >> RESULTS.md
)";

std::string filters_text(const ReportCommandOptions& options) {
    std::string text;
    if (!options.experiment.empty()) {
        text += fmt::format(" of experiment '{}'", options.experiment);
    }
    if (!options.runs.empty()) {
        text += fmt::format(" in run{} {}", options.runs.size() == 1 ? "" : "s",
                            fmt::join(options.runs, ", "));
    }
    return text;
}

int run(const ReportCommandOptions& options, const GlobalOptions& global) {
    const auto format = parse_report_format(options.format);
    if (!format) {
        throw Error(
            fmt::format("--format {}: unknown format; use text, md, csv or json", options.format));
    }
    SampleQuery query;
    query.experiment = options.experiment;
    query.run_ids = options.runs;
    if (!options.by.empty()) {
        query.by = parse_axes(fmt::format("{}", fmt::join(options.by, ",")));
    }
    query.metric = options.metric;
    query.include_failed = options.include_failed;

    Database db(global.db_path(), Database::Mode::ReadOnly);
    const SampleSet set = query_samples(db, query);
    if (set.boots == 0) {
        throw Error(fmt::format("no boots{} in {}: nothing to report (bootbench run stores "
                                "some; --db picks another database)",
                                filters_text(options), db.path().string()));
    }
    BootstrapOptions bootstrap;
    bootstrap.resamples = options.resamples;
    std::string out;
    switch (*format) {
    case ReportFormat::Text:
        out = render_report_text(set, summarize_groups(set, bootstrap));
        break;
    case ReportFormat::Markdown:
        out = render_report_markdown(set, summarize_groups(set, bootstrap));
        break;
    case ReportFormat::Csv:
        out = render_report_csv(set); // raw samples only: no bootstrap needed
        break;
    case ReportFormat::Json:
        out = render_report_json(set, summarize_groups(set, bootstrap));
        break;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
} // namespace

void add_report_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<ReportCommandOptions>();
    CLI::App* cmd =
        app.add_subcommand("report", "Summarize stored samples per group (median, 95% CI, …)");
    cmd->footer(k_report_help);
    cmd->add_option("--experiment", options->experiment, "only runs of this experiment");
    cmd->add_option("--run", options->runs, "only these run ids (repeatable, or comma-separated)")
        ->delimiter(',');
    cmd->add_option("--by", options->by, "group by these axes (comma-separated)")->delimiter(',');
    cmd->add_option("--metric", options->metric, "boot_seconds (default) or a metric name");
    cmd->add_option("--format", options->format, "text (default), md, csv or json");
    cmd->add_flag("--include-failed", options->include_failed,
                  "use failed and foreign-loaded boots too");
    cmd->add_option("--resamples", options->resamples, "bootstrap resamples (default 10000)")
        ->check(CLI::Range(100, 10'000'000));
    cmd->callback([options, &global, &exit_status] { exit_status = run(*options, global); });
}

} // namespace bb
