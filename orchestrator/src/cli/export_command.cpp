#include "cli/commands.h"
#include "completion/value_kind.h"
#include "kcidb/kcidb_document.h"
#include "report/render_support.h"
#include "store/database.h"
#include "store/export.h"
#include "store/kcidb_rows.h"
#include "util/did_you_mean.h"
#include "util/error.h"
#include "util/paths.h"
#include "util/units.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace bb {

namespace {

const std::vector<std::string>& export_formats() {
    static const std::vector<std::string> values{"sqlite", "kcidb"};
    return values;
}

constexpr const char* k_export_help =
    R"(--format sqlite (the default) writes a compact copy of the results database: the
chosen runs with their boots, metrics, histograms, events, experiments, hosts and
builds, without the boots' consoles (the bulk of a database; `bootbench repro` and
the source database keep them). It is a bootbench database at the current schema,
so every view, report and query reads it: the form results pages ship their data in
(docs/results/*.md).

--format kcidb writes the chosen runs as one KernelCI KCIDB report (I/O schema
v4.5, origin "bootbench"): a checkout per kernel source and patch set, a build per
kernel, a test per boot with its status (ok: DONE, timeout/silent/panic: FAIL,
crash or parameters not applied: ERROR, infra-error: MISS) and its boot time as
`number` in seconds. To stdout, or to -o FILE. docs/kcidb.md has the mapping.

Examples:
  bootbench export --experiment srcu-phase-table -o docs/data/seed000-phase-table.sqlite
  bootbench export --run 3 --run 4 -o /tmp/two-runs.sqlite
  bootbench report --db docs/data/seed000-phase-table.sqlite --view verdict
  bootbench --db docs/data/aa-nightly.sqlite export --format kcidb --run 18 -o night.json
)";

struct ExportOptions {
    std::string format = "sqlite";
    std::string output;
    std::vector<long long> runs;
    std::vector<std::string> experiments;
    bool force = false;
    bool json = false;
};

void check_format(const ExportOptions& options) {
    if (options.format != "sqlite" && options.format != "kcidb") {
        throw Error(fmt::format("--format {}: unknown format{}; use sqlite (the default) or kcidb",
                                options.format,
                                did_you_mean_note(options.format, export_formats())));
    }
    if (options.format == "sqlite" && options.output.empty()) {
        throw Error("--format sqlite writes a database file: name it with -o FILE");
    }
    if (options.format == "kcidb" && options.output.empty() && options.json) {
        throw Error("--json with --format kcidb needs -o FILE: without it the KCIDB report "
                    "itself is what goes to stdout");
    }
}

std::vector<long long> chosen_runs(Database& source, const ExportOptions& options) {
    std::vector<long long> runs = options.runs;
    const auto named = runs_of_experiments(source, options.experiments);
    runs.insert(runs.end(), named.begin(), named.end());
    return runs;
}

int export_sqlite(Database& source, const ExportOptions& options) {
    const ExportSummary summary =
        export_runs(source, chosen_runs(source, options), options.output, options.force);
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

void print_kcidb_summary(const nlohmann::json& document, const ExportOptions& options) {
    const auto count = [&](const char* kind) { return document[kind].size(); };
    if (options.json) {
        const nlohmann::json json = {{"output", options.output},
                                     {"format", "kcidb"},
                                     {"checkouts", count("checkouts")},
                                     {"builds", count("builds")},
                                     {"tests", count("tests")}};
        std::fputs(json_document(json).c_str(), stdout);
        return;
    }
    std::printf("exported %zu test(s) of %zu build(s) from %zu checkout(s) to %s (KCIDB %d.%d)\n",
                count("tests"), count("builds"), count("checkouts"), options.output.c_str(),
                k_kcidb_major, k_kcidb_minor);
}

int export_kcidb(Database& source, const ExportOptions& options) {
    if (!options.output.empty()) {
        check_export_target(source, options.output, options.force);
    }
    const nlohmann::json document =
        kcidb_document(read_kcidb_rows(source, chosen_runs(source, options)));
    const std::string text = json_document(document);
    if (options.output.empty()) {
        std::fputs(text.c_str(), stdout);
        return k_exit_ok;
    }
    write_file_atomically(options.output, text);
    print_kcidb_summary(document, options);
    return k_exit_ok;
}

int run_export(const ExportOptions& options, const GlobalOptions& global) {
    check_format(options);
    Database source(global.db_path(), Database::Mode::ReadOnly);
    return options.format == "kcidb" ? export_kcidb(source, options)
                                     : export_sqlite(source, options);
}

} // namespace

void add_export_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<ExportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "export", "Write chosen runs as a compact database copy (no consoles) or as KCIDB JSON");
    cmd->footer(k_export_help);
    cmd->add_option("--format", options->format,
                    "sqlite (default: a database copy) or kcidb (KernelCI's KCIDB JSON)")
        ->type_name(choice_of(export_formats()));
    cmd->add_option("-o,--output", options->output,
                    "the file to write (required for sqlite; kcidb: default stdout)");
    cmd->add_flag("--force", options->force,
                  "replace the output file when it exists (never the database exported)");
    cmd->add_option("--run", options->runs, "a run id (repeatable; default: every run)")
        ->type_name(k_run_value);
    cmd->add_option("--experiment", options->experiments,
                    "every run of this experiment (repeatable)")
        ->type_name(k_experiment_value);
    cmd->add_flag("--json", options->json,
                  "print what was exported as JSON (--format kcidb: with -o only)");
    cmd->callback([options, &global, &exit_status] { exit_status = run_export(*options, global); });
}

} // namespace bb
