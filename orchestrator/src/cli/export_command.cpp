#include "cli/commands.h"
#include "report/render_support.h"
#include "store/database.h"
#include "store/export.h"
#include "util/error.h"
#include "util/units.h"

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

namespace bb {

namespace {

constexpr const char* k_export_help =
    R"(Writes a compact copy of the results database: the chosen runs with their boots,
metrics, histograms, events, experiments, hosts and builds, without the boots'
consoles (the bulk of a database; `bootbench repro` and the source database keep
them). It is a bootbench database at the current schema, so every view, report and
query reads it: the form results pages ship their data in (docs/results/*.md).

Examples:
  bootbench export --experiment srcu-phase-table -o docs/data/seed000-phase-table.sqlite
  bootbench export --run 3 --run 4 -o /tmp/two-runs.sqlite
  bootbench report --db docs/data/seed000-phase-table.sqlite --view verdict
)";

struct ExportOptions {
    std::string output;
    std::vector<long long> runs;
    std::vector<std::string> experiments;
    bool force = false;
    bool json = false;
};

int run_export(const ExportOptions& options, const GlobalOptions& global) {
    Database source(global.db_path(), Database::Mode::ReadOnly);
    std::vector<long long> runs = options.runs;
    const auto named = runs_of_experiments(source, options.experiments);
    runs.insert(runs.end(), named.begin(), named.end());
    const ExportSummary summary = export_runs(source, runs, options.output, options.force);
    if (options.json) {
        const nlohmann::json json = {{"output", options.output},
                                     {"runs", summary.runs},
                                     {"boots", summary.boots},
                                     {"bytes", summary.bytes}};
        std::fputs(json_document(json).c_str(), stdout);
        return k_exit_ok;
    }
    std::printf("exported %lld run(s), %lld boot(s) to %s (%s, consoles left out)\n", summary.runs,
                summary.boots, options.output.c_str(),
                format_bytes(static_cast<double>(summary.bytes)).c_str());
    return k_exit_ok;
}

} // namespace

void add_export_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<ExportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "export", "Write a compact copy of chosen runs (no consoles), e.g. for a results page");
    cmd->footer(k_export_help);
    cmd->add_option("-o,--output", options->output, "the database file to write")->required();
    cmd->add_flag("--force", options->force,
                  "replace the output file when it exists (never the database exported)");
    cmd->add_option("--run", options->runs, "a run id (repeatable; default: every run)");
    cmd->add_option("--experiment", options->experiments,
                    "every run of this experiment (repeatable)");
    cmd->add_flag("--json", options->json, "print what was exported as JSON");
    cmd->callback([options, &global, &exit_status] { exit_status = run_export(*options, global); });
}

} // namespace bb
