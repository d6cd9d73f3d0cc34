#include "cli/commands.h"
#include "cli/option_checks.h"
#include "completion/value_kind.h"
#include "experiment/matrix.h"
#include "report/history.h"
#include "report/history_attribution.h"
#include "report/history_initcalls.h"
#include "report/history_phases.h"
#include "report/html_report.h"
#include "report/render_support.h"
#include "report/text_table.h"
#include "store/boot_store.h"
#include "store/database.h"
#include "util/did_you_mean.h"
#include "util/error.h"
#include "util/markup_escape.h"
#include "util/output_guard.h"
#include "util/paths.h"
#include "util/terminal.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace bb {

namespace {

const std::vector<std::string>& history_formats() {
    static const std::vector<std::string> values{"text", "md", "json", "html"};
    return values;
}

const std::vector<std::string>& history_views() {
    static const std::vector<std::string> values{"phases"};
    return values;
}
struct HistoryCommandOptions {
    std::string experiment;
    std::string metric = "boot_seconds";
    std::vector<std::string> only; // AXIS=V1,V2
    std::string format = "text";   // text, json or html (--json and --html FILE: aliases)
    std::string output;            // -o: to this file instead of stdout
    bool json = false;
    std::string html;   // a file
    bool force = false; // replace an existing -o or --html file
    double alpha = 0.05;
    std::string view; // "" (the endpoint's history) or "phases"
};

constexpr const char* k_history_help =
    R"(A nightly experiment's history, night by night (docs/nightly.md, "History and change
points"). A night is one `bootbench nightly` run of the experiment (runs.mode = nightly), in
the order the nights started; its used boots (ok, not loaded, parameters applied) of a cell give
that night's median with its order-statistic interval and n. The night, not the boot, is the
unit: the boots of one night share that night's host, so the spread between nights is shown
beside the spread within one (a one-way ANOVA of log boot times).

Change points are found over the whole history, not only against the last night: a rank
CUSUM over the night medians, each split tested by permuting the nights (999 orders, seeded),
binary segmentation with the level split by segment size so that a history where nothing
changed is flagged with probability at most --alpha (default 0.05). Each point names the first
night of the new level, its size after / before (Hodges-Lehmann on the neighbouring nights'
medians, exact Mann-Whitney interval) and which inputs changed that night against the night
before: the build key and what it is built from (kernel source, patches, config), qemu (as the
host's KVM probe recorded it), firmware and host. A shift that came with a new host is labelled
so: it may be the machine's, not the kernel's. A cell with fewer than 7 nights (3 on each side
of a shift) gets no test, and says so.

Where each shift goes (boot_seconds only): per phase (below), the nights after the point
against the nights before it, back to the previous point, one value per night (the median of
its boots' phase values), Hodges-Lehmann shift with its exact Mann-Whitney interval; a phase
carries the shift when that interval excludes 0. The night stays the unit, as in the scan.

--view phases shows where each night's boot time went instead: per cell one row per night with
the median of each phase of the boots (firmware = qemu start → the console's first byte,
pre-banner = first byte → the kernel's banner, kernel = banner → "Run /init", init = Run /init
→ the marker; the same phases as `bootbench report --view phases`, docs/reporting.md), in
text, --json and --html (a stacked bar per night). A boot the console showed no banner
(`quiet`) adds nothing to the phases that need it, and the notes count it.

Output: text (a table per cell), --json (the keys docs/nightly.md lists), --html FILE (one
self-contained page: per cell the night medians with their intervals over time, the nights
that start a shift ringed, and the tables; written atomically, an existing FILE that is not a
regular file refused; the text is then not printed, --json still is). The database is only
read.

Exit status: 0 when the history was shown (a change point is reported, not a failure:
`bootbench nightly` is the gate), 2 on errors (unknown experiment, metric or axis; no nightly
run), 3 when the database stayed locked, 70 on a bug in bootbench.

Examples:
  bootbench history quick                            every cell of the nightly 'quick'
  bootbench history quick --only variant=stock       one variant's cells
  bootbench history quick --metric run_init_seconds  when /init started, night by night
  bootbench history quick --json | jq '.cells[].change_points[] | {night, run_id, changed}'
  bootbench history quick --html history.html        the page with a chart per cell
  bootbench history quick --alpha 0.01              fewer false alarms, less power
  bootbench history quick --view phases              where each night's boot time went
  bootbench history quick --view phases --html phases.html   a stacked bar per night
)";

// The page's context: the database's file name, not its path (a page is shared, the
// machine's layout is not).
HtmlContext history_page_context(const HistoryCommandOptions& options, Database& db) {
    const std::string what = options.view == "phases" ? "phases" : options.metric;
    HtmlContext context;
    context.title = "bootbench history: " + options.experiment;
    context.subtitle = fmt::format(
        "{}; {}{}; bootbench {}", db.path().filename().string(), what,
        options.only.empty() ? "" : fmt::format(" with {}", fmt::join(options.only, " ")),
        tool_version());
    return context;
}

void write_page(const std::string& path, const std::string& page, const GlobalOptions& global) {
    write_file_atomically(path, page);
    if (!global.quiet) {
        std::fprintf(stderr, "bootbench: wrote %s (%zu bytes)\n", path.c_str(), page.size());
    }
}

// One name per rendering for both histories, so `emit` is written once.
std::string as_text(const History& history, ReportFormat format, size_t width) {
    return render_history(history, format, width);
}
std::string as_text(const PhaseHistory& history, ReportFormat format, size_t width) {
    return render_phase_history(history, format, width);
}
std::string as_html(const History& history, const HtmlContext& context) {
    return render_history_html(history, context);
}
std::string as_html(const PhaseHistory& history, const HtmlContext& context) {
    return render_phase_history_html(history, context);
}
nlohmann::json as_json(const History& history) {
    return history_json(history);
}
nlohmann::json as_json(const PhaseHistory& history) {
    return phase_history_json(history);
}

// The format asked for: --json is `--format json`; --format names text, md, json or html.
std::string chosen_format(const HistoryCommandOptions& options) {
    const std::string format = options.json ? "json" : options.format;
    if (format != "text" && format != "md" && format != "json" && format != "html") {
        throw Error(
            fmt::format("--format {}: unknown format for history{}; use text, md, json or html "
                        "(csv: `bootbench query` reads the nights' boots as rows)",
                        format, did_you_mean_note(format, history_formats())));
    }
    return format;
}

// The history in one format, and where it goes: -o FILE, else stdout. `--html FILE` (the older
// spelling) writes the page too and prints nothing more unless --json or --format asks.
template <typename AnyHistory>
void emit(const HistoryCommandOptions& options, const GlobalOptions& global, Database& db,
          const AnyHistory& history) {
    if (!options.html.empty()) {
        write_page(options.html, as_html(history, history_page_context(options, db)), global);
    }
    const std::string format = chosen_format(options);
    if (!options.html.empty() && format == "text" && options.format == "text" &&
        options.output.empty()) {
        return;
    }
    std::string out;
    if (format == "json") {
        out = json_document(as_json(history));
    } else if (format == "html") {
        out = as_html(history, history_page_context(options, db));
    } else if (format == "md") {
        out = as_text(history, ReportFormat::Markdown, table_width());
    } else {
        out = as_text(history, ReportFormat::Text, table_width());
    }
    if (options.output.empty() && format != "json" && format != "html") {
        out = terminal_output(out); // stored strings are shown, never obeyed by the terminal
    }
    if (!options.output.empty()) {
        write_page(options.output, out, global);
        return;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
}

int run(const HistoryCommandOptions& options, const GlobalOptions& global) {
    if (!options.view.empty() && options.view != "phases") {
        throw Error(fmt::format("--view {}: unknown view{}; use phases (or leave --view out for "
                                "the endpoint's history)",
                                options.view, did_you_mean_note(options.view, history_views())));
    }
    if (options.view == "phases" && options.metric != "boot_seconds") {
        throw Error(fmt::format("--metric {}: --view phases divides the endpoint boot_seconds "
                                "into its phases; drop --metric",
                                options.metric));
    }
    chosen_format(options); // before the work
    for (const auto& file : {options.html, options.output}) {
        if (!file.empty()) {
            check_command_output(file, global.db_path(), options.force);
        }
    }
    Database db(global.db_path(), Database::Mode::ReadOnly);
    HistoryQuery query;
    query.experiment = options.experiment;
    query.metric = options.metric;
    query.only = parse_axis_restrictions(options.only);
    query.alpha = options.alpha;
    if (options.view == "phases") { // the nights' phase medians instead of change points
        emit(options, global, db, query_phase_history(db, query));
        return k_exit_ok;
    }
    History history = query_history(db, query);
    attribute_history_changes(db, query, history);
    attribute_history_initcalls(db, query, history);
    emit(options, global, db, history);
    return k_exit_ok;
}
} // namespace

void add_history_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<HistoryCommandOptions>();
    CLI::App* cmd = app.add_subcommand(
        "history", "A nightly experiment night by night: medians, variance, change points");
    cmd->footer(k_history_help);
    cmd->add_option("EXPERIMENT", options->experiment, "the experiment's name (its nightly runs)")
        ->required()
        ->type_name(k_experiment_value);
    cmd->add_option("--metric", options->metric, "boot_seconds (default) or a metric name");
    cmd->add_option("--only", options->only,
                    "AXIS=V1,V2: only boots with these values of an axis (repeatable)");
    cmd->add_option("--format", options->format, "text (default), md, json or html")
        ->type_name(choice_of(history_formats()));
    cmd->add_option("-o,--output", options->output,
                    "write to this file instead of stdout (never the database)");
    cmd->add_flag("--json", options->json, "the same as --format json");
    cmd->add_option("--html", options->html,
                    "also write the page to this file (then nothing is printed unless --json "
                    "or --format asks)");
    cmd->add_flag("--force", options->force,
                  "replace the -o or --html file when it exists (never the database)");
    cmd->add_option("--view", options->view,
                    "phases: each night's boot time divided into its phases (see below)")
        ->type_name(choice_of(history_views()));
    cmd->add_option("--alpha", options->alpha,
                    "the chance of flagging a history where nothing changed (default 0.05)")
        ->check(number_in(0.0001, 0.5));
    cmd->callback([options, &global, &exit_status] { exit_status = run(*options, global); });
}

} // namespace bb
