#include "cli/commands.h"
#include "completion/value_kind.h"
#include "experiment/matrix.h"
#include "report/csv_format.h"
#include "report/histogram_view.h"
#include "report/host_split.h"
#include "report/html_report.h"
#include "report/initcall_renderer.h"
#include "report/json_format.h"
#include "report/noise_warnings.h"
#include "report/param_table.h"
#include "report/per_item_view.h"
#include "report/phase_samples.h"
#include "report/phase_view.h"
#include "report/report_format.h"
#include "report/report_table.h"
#include "report/sample_query.h"
#include "report/text_table.h"
#include "report/verdict.h"
#include "report/view_renderer.h"
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
#include <optional>
#include <utility>

namespace bb {

namespace {

const std::vector<std::string>& report_formats() {
    static const std::vector<std::string> values{"text", "md", "csv", "json", "html"};
    return values;
}

const std::vector<std::string>& report_views() {
    static const std::vector<std::string> values{"param-table", "histogram", "per-item",
                                                 "verdict",     "phases",    "initcalls"};
    return values;
}
struct ReportCommandOptions {
    std::string experiment;
    std::vector<long long> runs;
    bool all_experiments = false;
    std::vector<std::string> by;
    std::vector<std::string> only; // AXIS=V1,V2
    std::string metric = "boot_seconds";
    std::string format = "text";
    std::string output;
    bool force = false; // replace an existing -o file
    bool include_failed = false;
    bool include_loaded = false;
    bool pool_hosts = false;
    // Seed-shaped views.
    std::string view;
    std::string param;
    std::string hist;
    std::optional<double> bucket_us; // set from the option below when it was given
    std::string items;
    std::string base;
    std::optional<int> top; // initcalls: rows per group (default 15)
};

constexpr const char* k_report_help =
    R"(Summarize stored samples group by group: n, the median with its distribution-free
order-statistic interval and the coverage that interval really has (below 6 boots no
interval reaches 95 %: the row says so), mean ± σ and min … max. Only used boots enter:
outcome ok, every checked kernel parameter applied, and not loaded (foreign host load within
the quiet.max_load in force when the boot ran; 0.25 for boots stored before schema 8). The
others are counted in "excluded" (failed, loaded, no value), never averaged. --include-failed uses failed boots
that have a value, --include-loaded foreign-loaded ones; "failed/loaded used" counts them per
row. docs/reporting.md ("Methods") explains every interval and test.

Runs: every run of the database, unless --experiment or --run choose; a database holding
several experiments defaults to the newest run's experiment, named in the first line
(--all-experiments pools them all: cells of different experiments with equal axis values
merge).

Groups: one per cell of the matrix unless --by names axes: keys of the boots' parameters
(variant, hz, smp, firmware, machine, a cmdline parameter such as
srcutree.srcu_max_nodelay_phase) or the pseudo-axes run, cell and host. Samples of different
hosts (a fleet run) are never pooled: host is added to the groups unless --pool-hosts. A
fleet host lost during a run is named below the table.

Metrics: boot_seconds (spawn to the timing marker; the default), guest_marker_seconds,
first_byte_seconds, banner_seconds, run_init_seconds, wall_seconds, or any name a guest
printed with BOOTBENCH-METRIC.

Views (--view), shaped like the tables of kernel patch mails:
  param-table  --param P [--by variant]: one row per value of P in numeric order with the
               median [95% CI] (n) of the metric; one column per variant (by default when
               the boots are of several variants: two kernels are never one row).
  histogram    --hist NAME [--bucket-us W] [--by smp,variant] [--base stock]: the groups'
               BOOTBENCH-HIST buckets summed over their used boots, re-bucketed to W µs, side
               by side, with p50/p90/p99 (linear inside the bucket; display only) and the
               Hodges-Lehmann shift of each boot's own p50 and p99 (the guest's NAME_p50 /
               NAME_p99 metrics) against the base group with the same values of the other
               --by axes (last axis = --base, default stock, else the first group).
  per-item     --items PREFIX [--by variant] [--base stock]: metrics PREFIX.<item> (one
               value per boot each), item | base | other | diff | diff %, first a geomean
               row: each boot's geomean over the items, compared across boots.
  phases       [--by variant]: where boot time goes. Each boot's endpoint divided into four
               phases between moments its console showed (host clock from qemu's start):
               firmware = qemu start → first byte, pre-banner = first byte → the kernel's
               banner, kernel = banner → "Run /init", init = Run /init → the marker. One row per
               group with each phase's median (a boot without a moment, e.g. no banner under
               `quiet`, adds nothing to the phases needing it; counted below the table); html:
               a stacked bar per group. Nested boots (timed from L2's start) are left out.
               `bootbench compare A B --phases` says which phases carry a shift.
  initcalls    [--by variant] [--top N]: where the kernel's own boot goes, from boots traced
               with initcall_debug (`trace: initcalls` in the experiment): per group the time
               to /init on the kernel's clock, the initcalls' sum and the rest, then the N
               longest initcalls (default 15), each the median over boots with its interval,
               its share of the time to /init and n. Boots whose trace is not complete (a
               wrapped ring buffer, a cut dump) are counted, never used.
  verdict      [--run N | --experiment NAME]: the run's declared analysis (analysis: in its
               experiment file, stored with the run; default: the newest run that declared
               one): per comparison and condition n, B/A with its exact interval, the shift,
               p, Holm-adjusted p and the decision at α; in every format. When a run declares
               an analysis, every other figure of it is "exploratory". Exit status 1 when
               a comparison decided B slower (or worse), as compare's: a CI gate.

Formats: text (aligned, automatic units), md (Markdown), csv and json (the grouped report:
every raw sample with its boot id, run id, params and value; a view: its table in long
form), html (one self-contained page with SVG charts; -o report.html writes it to a file).
-o FILE is written atomically (a temporary file, then rename); a bare name is the current
directory; an existing FILE that is not a regular file (device, FIFO, directory, symbolic
link), the database itself (or a link to it, its -wal or -shm) and, without --force, an
existing file are refused before anything is computed.
Text fits the screen: COLUMNS, else the terminal's width, else 120 columns. What every row
shares is said once above a table ("same in every row:"), columns that still do not fit are
left out and named below it (md, csv, json and html keep them all), long lines wrap.
docs/reporting.md describes each view and the HTML report.

Examples:
  bootbench report --run 12                                   every cell of run 12
  bootbench report --experiment srcu-storm --by hz,variant    all runs of an experiment
  bootbench report --run 12 --by srcutree.srcu_max_nodelay_phase
  bootbench report --run 12 --only variant=rspin-patch --view per-item --items launch \
                   --by rwsem.opt_rspin --base 0          one variant's A/B of a parameter
  bootbench report --run 12 --run 13 --by run,variant         two runs side by side
  bootbench report --run 12 --metric max_phase --by variant   a guest-reported metric
  bootbench report --run 12 --format csv > samples.csv        raw samples for pandas or R
  bootbench report --run 12 --format md >> RESULTS.md
  bootbench report --view param-table --param srcutree.srcu_max_nodelay_phase --by variant
  bootbench report --view histogram --hist sync_latency_us --bucket-us 10000 --by variant
  bootbench report --view per-item --items launch --by variant --base stock --format md
  bootbench report --view verdict --run 12                    the declared analysis of run 12
  bootbench report --view phases --run 12 --by variant        where each variant's boot time goes
  bootbench report --view param-table --param srcutree.srcu_max_nodelay_phase \
                   --format html -o srcu.html                 chart + table in one file
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
    for (const auto& only : options.only) {
        text += fmt::format(" with {}", only);
    }
    return text;
}

SampleQuery selection(const ReportCommandOptions& options) {
    SampleQuery query;
    query.experiment = options.experiment;
    query.run_ids = options.runs;
    if (!options.by.empty()) {
        query.by = parse_axes(fmt::format("{}", fmt::join(options.by, ",")));
    }
    query.only = parse_axis_restrictions(options.only);
    query.metric = options.metric;
    query.include_failed = options.include_failed;
    query.include_loaded = options.include_loaded;
    return query;
}

// The selection, with one group per host unless --pool-hosts: a fleet's hosts are never pooled.
SampleQuery host_split_selection(const ReportCommandOptions& options, Database& db) {
    const SampleQuery query = selection(options);
    return options.pool_hosts ? query : split_by_host(db, query);
}

// What a page is about, for its title: the experiment (the only one, when none was chosen) and
// the runs chosen ("srcu-readers, runs 3, 4"); empty when neither can be named.
std::string page_scope(const ReportCommandOptions& options, Database& db) {
    std::string scope = options.experiment;
    if (scope.empty()) {
        const std::vector<std::string> names = experiments_newest_first(db);
        scope = names.size() == 1 ? names.front() : "";
    }
    if (!options.runs.empty()) {
        scope += fmt::format("{}run{} {}", scope.empty() ? "" : ", ",
                             options.runs.size() == 1 ? "" : "s", fmt::join(options.runs, ", "));
    }
    return scope;
}

HtmlContext html_context(const ReportCommandOptions& options, Database& db,
                         const std::string& title) {
    const std::string scope = page_scope(options, db);
    HtmlContext context;
    context.title = scope.empty() ? title : fmt::format("{}: {}", scope, title);
    // The database's file name, not its path: a page is shared, the machine's layout is not.
    context.subtitle = fmt::format("{}{}; bootbench {}", db.path().filename().string(),
                                   filters_text(options), tool_version());
    // A page about runs that declared an analysis shows its verdict, and says (as text and
    // Markdown do, first) that every other figure on it is exploratory.
    const auto declared = runs_with_analysis(db, options.runs, options.experiment);
    if (!declared.empty()) {
        context.banner = exploratory_note(declared, false, "");
        context.appendix = verdict_html_section(compute_verdict(db, declared.back()));
    }
    return context;
}

// Options that only make sense with a view are errors elsewhere, so a typo never goes unseen.
void check_view_options(const ReportCommandOptions& options) {
    const std::vector<std::string>& views = report_views();
    if (!options.view.empty() &&
        std::find(views.begin(), views.end(), options.view) == views.end()) {
        throw Error(fmt::format("--view {}: unknown view{}; use {}", options.view,
                                did_you_mean_note(options.view, views), fmt::join(views, ", ")));
    }
    if (options.view == "phases" && options.metric != "boot_seconds") {
        throw Error(fmt::format("--metric {}: --view phases divides the endpoint boot_seconds "
                                "into its phases; drop --metric",
                                options.metric));
    }
    if (options.view == "initcalls" && options.metric != "boot_seconds") {
        throw Error(fmt::format("--metric {}: --view initcalls reads the initcalls of the boots "
                                "the endpoint boot_seconds uses; drop --metric",
                                options.metric));
    }
    const auto stray = [&options](bool given, const char* option, const char* view) {
        if (given && options.view != view) {
            throw Error(fmt::format(
                "{} belongs to --view {}{}", option, view,
                options.view.empty() ? "" : fmt::format(" (this is --view {})", options.view)));
        }
    };
    stray(!options.param.empty(), "--param", "param-table");
    stray(!options.hist.empty(), "--hist", "histogram");
    stray(options.bucket_us.has_value(), "--bucket-us", "histogram");
    stray(!options.items.empty(), "--items", "per-item");
    stray(options.top.has_value(), "--top", "initcalls");
    if (options.top && (*options.top < 1 || *options.top > 100000)) {
        throw Error(fmt::format("--top {}: expected 1 to 100000 rows per group", *options.top));
    }
    if (!options.base.empty() && options.view != "per-item" && options.view != "histogram") {
        throw Error(fmt::format(
            "--base belongs to --view per-item or --view histogram{}",
            options.view.empty() ? "" : fmt::format(" (this is --view {})", options.view)));
    }
    if (options.view == "param-table" && options.param.empty()) {
        throw Error("--view param-table needs --param NAME, e.g. --param "
                    "srcutree.srcu_max_nodelay_phase");
    }
    if (options.view == "histogram" && options.hist.empty()) {
        throw Error("--view histogram needs --hist NAME (a histogram the guest printed with "
                    "BOOTBENCH-HIST)");
    }
    if (options.view == "per-item" && options.items.empty()) {
        throw Error("--view per-item needs --items PREFIX (metrics named PREFIX.<item>)");
    }
}

// The noise warnings of every group of boot times (report/noise_warnings.h), then the fix;
// "" when none is noisy. A metric's spread may be its nature: only times are judged.
std::string noise_text(const SampleSet& set) {
    if (!set.seconds) {
        return "";
    }
    std::string out;
    for (const auto& group : set.groups) {
        std::vector<long long> ids;
        for (const auto& sample : group.samples) {
            if (sample.used && sample.value) {
                ids.push_back(sample.boot_id);
            }
        }
        if (ids.size() != group.values.size()) { // --include-failed/-loaded: times only
            ids.clear();
        }
        for (const auto& warning :
             noise_warnings(group_label(set.axes, group.key), group.values, ids)) {
            out += warning + "\n";
        }
    }
    return out.empty() ? out : out + noise_fix_hint() + "\n";
}

std::string grouped_report(const ReportCommandOptions& options, ReportFormat format, Database& db,
                           const EstimateOptions& estimates) {
    const SampleQuery query = host_split_selection(options, db);
    const SampleSet set = query_samples(db, query);
    if (set.boots == 0) {
        throw Error(fmt::format("no boots{} in {}: nothing to report (bootbench run stores "
                                "some; --db picks another database)",
                                filters_text(options), db.path().string()));
    }
    std::string lost;
    for (const auto& note : lost_host_notes(db, query)) {
        lost += (format == ReportFormat::Markdown ? "\n> " : "") + note + "\n";
    }
    switch (format) {
    case ReportFormat::Text:
        return render_report_text(set, summarize_groups(set, estimates)) + lost + noise_text(set);
    case ReportFormat::Markdown:
        return render_report_markdown(set, summarize_groups(set, estimates)) + lost +
               noise_text(set);
    case ReportFormat::Csv:
        return render_report_csv(set); // raw samples only: no statistics
    case ReportFormat::Json:
        return render_report_json(set, summarize_groups(set, estimates));
    case ReportFormat::Html:
        return render_report_html(set, summarize_groups(set, estimates),
                                  html_context(options, db, "bootbench report: " + set.metric));
    }
    return {};
}

std::string param_table_view(const ReportCommandOptions& options, ReportFormat format, Database& db,
                             const EstimateOptions& estimates) {
    SampleQuery query = selection(options);
    if (query.by.size() > 1) {
        throw Error(fmt::format("--by {}: a parameter table has one column axis (e.g. --by "
                                "variant)",
                                fmt::join(query.by, ",")));
    }
    std::string note;
    if (query.by.empty()) {
        // Two kernels are never one row: an anchor kernel at one of the parameter's values would
        // join that row and the trend test under the table.
        SampleQuery variants = query;
        variants.by = {"variant"};
        const size_t count = query_samples(db, variants).groups.size();
        if (count > 1) {
            query.by = {"variant"};
            note = fmt::format("columns by variant: the boots are of {} variants, which a "
                               "parameter table does not pool\n",
                               count);
        }
    }
    query.by.insert(query.by.begin(), parse_axes(options.param).front());
    const SampleSet set = query_samples(db, query);
    if (set.boots == 0) {
        throw Error(fmt::format("no boots{} in {}", filters_text(options), db.path().string()));
    }
    const ParamTable table = build_param_table(set, estimates);
    if (format == ReportFormat::Html) {
        return render_param_table_html(
            table, html_context(options, db, fmt::format("{} vs {}", set.metric, options.param)));
    }
    if (format == ReportFormat::Text || format == ReportFormat::Markdown) {
        return note + render_param_table(table, format);
    }
    return render_param_table(table, format);
}

// The level a view's tests are decided at: the α the selected runs declared (the newest such
// run's), so a view and the verdict answer one question alike; else the estimates' default.
EstimateOptions at_declared_alpha(const ReportCommandOptions& options, Database& db,
                                  EstimateOptions estimates) {
    const auto runs = runs_with_analysis(db, options.runs, options.experiment);
    if (!runs.empty()) {
        if (const auto stored = BootStore(db).run_analysis(runs.back())) {
            estimates.alpha = analysis_from_json(*stored).alpha;
        }
    }
    return estimates;
}

std::string histogram_view(const ReportCommandOptions& options, ReportFormat format, Database& db,
                           const EstimateOptions& given) {
    const EstimateOptions estimates = at_declared_alpha(options, db, given);
    HistogramViewQuery query;
    query.selection = selection(options);
    query.name = options.hist;
    query.bucket_width = options.bucket_us;
    if (!options.base.empty()) {
        query.base = options.base;
    }
    const HistogramView view = query_histogram_view(db, query, estimates);
    if (format == ReportFormat::Html) {
        return render_histogram_html(view, html_context(options, db, "histogram " + options.hist));
    }
    return render_histogram_view(view, format);
}

std::string per_item_view(const ReportCommandOptions& options, ReportFormat format, Database& db,
                          const EstimateOptions& estimates) {
    PerItemQuery query;
    query.selection = selection(options);
    query.prefix = options.items;
    if (!options.base.empty()) {
        query.base = options.base;
    }
    const PerItemView view = query_per_item_view(db, query, estimates);
    if (view.comparisons.empty()) {
        throw Error(fmt::format("--items {}: the boots form a single {} group ({}); a per-item "
                                "table compares two or more",
                                options.items, view.axis, view.base.label()));
    }
    if (format == ReportFormat::Html) {
        return render_per_item_html(view, html_context(options, db, options.items + ".* per item"));
    }
    return render_per_item_view(view, format);
}

// Where boot time goes: each group's boots divided into the phases of report/boot_phases.h.
std::string phases_view(const ReportCommandOptions& options, ReportFormat format, Database& db,
                        const EstimateOptions& estimates) {
    const SampleQuery query = host_split_selection(options, db);
    const PhaseSet set = query_phases(db, query);
    if (set.entered == 0) {
        int timed_from_marker = 0;
        for (const auto& [marker, count] : set.from_marker) {
            timed_from_marker += count;
        }
        throw Error(fmt::format("no boot{} in {} divides into phases: of {} boots, {} are timed "
                                "from a start marker (a nested boot times L2 from its own start, "
                                "not from qemu's) and the others failed, ran loaded or showed no "
                                "moment; --metric first_byte_seconds and the like still read them",
                                filters_text(options), db.path().filename().string(), set.boots,
                                timed_from_marker));
    }
    if (format == ReportFormat::Html) {
        return render_phase_html(set, html_context(options, db, "where boot time goes"));
    }
    return render_phase_view(set, format, estimates);
}

// Where the kernel's own boot goes, initcall by initcall (report/initcall_view.h).
std::string initcalls_view(const ReportCommandOptions& options, ReportFormat format, Database& db,
                           const EstimateOptions& estimates) {
    const InitcallView view = query_initcall_view(db, host_split_selection(options, db),
                                                  options.top.value_or(15), estimates);
    if (format == ReportFormat::Html) {
        return render_initcall_html(view, html_context(options, db, "initcalls"));
    }
    return render_initcall_view(view, format);
}

// The declared analysis of one run: --run N, or the newest run of --experiment NAME that has
// one, or the newest run of the database that has one (docs/reporting.md). Not scoped to the
// newest run's experiment: that one may have declared nothing while an older one did.
VerdictTable verdict_of(const ReportCommandOptions& options, Database& db,
                        const GlobalOptions& global) {
    if (!options.by.empty() || !options.only.empty() || options.metric != "boot_seconds" ||
        options.include_failed || options.include_loaded) {
        throw Error("--view verdict takes only --run N or --experiment NAME (the endpoint, the "
                    "comparisons and the boots used are the ones the run declared) and --format");
    }
    if (options.runs.size() > 1) {
        throw Error("--view verdict needs one run: --run N, or --experiment NAME for its newest "
                    "run with an analysis (default: the newest run with one)");
    }
    if (!options.runs.empty()) {
        return compute_verdict(db, options.runs.front());
    }
    const auto runs = runs_with_analysis(db, {}, options.experiment);
    if (runs.empty()) {
        const auto anywhere = runs_with_analysis(db, {}, "");
        std::string candidates;
        for (const long long run : anywhere) {
            candidates += fmt::format("\n  bootbench {}report --view verdict --run {}",
                                      global.db_argument(), run);
        }
        throw Error(fmt::format("no run {} declares an analysis (analysis: in its file, "
                                "docs/experiments.md#analysis){}",
                                options.experiment.empty()
                                    ? std::string("of this database")
                                    : fmt::format("of experiment {}", options.experiment),
                                anywhere.empty() ? "" : "; runs that do:" + candidates));
    }
    return compute_verdict(db, runs.back());
}

std::string exploratory_label(const ReportCommandOptions& options, ReportFormat format,
                              Database& db, const GlobalOptions& global) {
    if (format != ReportFormat::Text && format != ReportFormat::Markdown) {
        return "";
    }
    return exploratory_note(runs_with_analysis(db, options.runs, options.experiment),
                            format == ReportFormat::Markdown, global.db_argument());
}

// A database holding several experiments (an exported page's data, a lab's history): without
// --experiment or --run, a report of everything would pool the cells of different experiments
// that share axis values. The newest run's experiment is the default, named above the report.
std::pair<ReportCommandOptions, std::string>
scoped_to_one_experiment(const ReportCommandOptions& given, Database& db) {
    if (!given.experiment.empty() || !given.runs.empty() || given.all_experiments) {
        return {given, ""};
    }
    const std::vector<std::string> names = experiments_newest_first(db);
    if (names.size() < 2) {
        return {given, ""};
    }
    ReportCommandOptions scoped = given;
    scoped.experiment = names.front();
    return {scoped, fmt::format("experiment {} (the newest run's; this database holds {} "
                                "experiments: --experiment NAME for another, --all-experiments to "
                                "pool them)\n",
                                names.front(), names.size())};
}

int run(const ReportCommandOptions& given, const GlobalOptions& global) {
    const auto format = parse_report_format(given.format);
    if (!format) {
        throw Error(fmt::format("--format {}: unknown format{}; use text, md, csv, json or html",
                                given.format, did_you_mean_note(given.format, report_formats())));
    }
    check_view_options(given);
    if (!given.output.empty()) {
        check_command_output(given.output, global.db_path(), given.force); // before the work
    }
    Database db(global.db_path(), Database::Mode::ReadOnly);
    // The verdict is not scoped to the newest run's experiment (verdict_of says why).
    const auto [options, scope] = given.view == "verdict"
                                      ? std::pair<ReportCommandOptions, std::string>{given, ""}
                                      : scoped_to_one_experiment(given, db);
    const EstimateOptions estimates;
    std::string out;
    int status = k_exit_ok;
    if (options.view == "verdict") {
        const VerdictTable table = verdict_of(options, db, global);
        out = render_verdict(table, *format);
        // The exit rule compare has: 1 when a declared comparison decided B slower.
        status = decided_against_b(table) ? k_exit_verdict : k_exit_ok;
    } else if (options.view.empty()) {
        out = grouped_report(options, *format, db, estimates);
    } else if (options.view == "param-table") {
        out = param_table_view(options, *format, db, estimates);
    } else if (options.view == "histogram") {
        out = histogram_view(options, *format, db, estimates);
    } else if (options.view == "phases") {
        out = phases_view(options, *format, db, estimates);
    } else if (options.view == "initcalls") {
        out = initcalls_view(options, *format, db, estimates);
    } else {
        out = per_item_view(options, *format, db, estimates); // the views were checked above
    }
    if (options.view != "verdict") {
        out = exploratory_label(options, *format, db, global) + out;
    }
    if (!scope.empty()) {
        const bool in_band = *format == ReportFormat::Text || *format == ReportFormat::Markdown;
        if (in_band) {
            out = (*format == ReportFormat::Markdown ? "> " + scope + "\n" : scope) + out;
        } else if (!global.quiet) {
            std::fprintf(stderr, "bootbench: %s", terminal_output(scope).c_str());
        }
    }
    if (*format == ReportFormat::Text) {
        out = wrap_long_lines(out, table_width());
    }
    if (*format == ReportFormat::Text || *format == ReportFormat::Markdown) {
        out = terminal_output(out); // stored strings are shown, never obeyed by the terminal
    }
    if (!options.output.empty()) {
        write_file_atomically(options.output, out);
        if (!global.quiet) {
            std::fprintf(stderr, "bootbench: wrote %s (%zu bytes)\n", options.output.c_str(),
                         out.size());
        }
        return status;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return status;
}
} // namespace

void add_report_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<ReportCommandOptions>();
    CLI::App* cmd =
        app.add_subcommand("report", "Summarize stored samples per group (median, 95% CI, …)");
    cmd->footer(k_report_help);
    cmd->add_option("--experiment", options->experiment,
                    "only runs of this experiment (default: the newest run's)")
        ->type_name(k_experiment_value);
    cmd->add_option("--run", options->runs, "only these run ids (repeatable, or comma-separated)")
        ->delimiter(',')
        ->type_name(k_run_value);
    cmd->add_flag("--all-experiments", options->all_experiments,
                  "pool every experiment of the database (cells sharing axis values merge)");
    cmd->add_option("--by", options->by, "group by these axes (comma-separated)")->delimiter(',');
    cmd->add_option("--only", options->only,
                    "AXIS=V1,V2: only boots with these values of an axis (repeatable)");
    cmd->add_option("--metric", options->metric, "boot_seconds (default) or a metric name");
    cmd->add_option("--format", options->format, "text (default), md, csv, json or html")
        ->type_name(choice_of(report_formats()));
    cmd->add_option("-o,--output", options->output, "write to this file instead of stdout");
    cmd->add_flag("--force", options->force,
                  "replace the -o file when it exists (never the database)");
    cmd->add_option("--view", options->view,
                    "param-table, histogram, per-item, verdict, phases or initcalls (see below)")
        ->type_name(choice_of(report_views()));
    cmd->add_option("--param", options->param, "param-table: the parameter of the rows");
    cmd->add_option("--hist", options->hist, "histogram: the histogram's name");
    auto bucket_us = std::make_shared<double>(0);
    CLI::Option* bucket_option =
        cmd->add_option("--bucket-us", *bucket_us,
                        "histogram: bucket width in µs (default: the stored buckets' step)");
    cmd->add_option("--items", options->items, "per-item: metric prefix (PREFIX.<item>)");
    auto top = std::make_shared<int>(15);
    CLI::Option* top_option =
        cmd->add_option("--top", *top, "initcalls: the longest N initcalls per group (default 15)");
    cmd->add_option("--base", options->base,
                    "per-item and histogram: the base value of the last --by axis (default stock, "
                    "else the first group)");
    cmd->add_flag("--include-failed", options->include_failed,
                  "use failed boots that have a value too");
    cmd->add_flag("--include-loaded", options->include_loaded,
                  "use boots under foreign host load too");
    cmd->add_flag("--pool-hosts", options->pool_hosts,
                  "group samples of different hosts together (default: one group per host)");
    cmd->callback([options, bucket_us, bucket_option, top, top_option, &global, &exit_status] {
        if (bucket_option->count() > 0) {
            options->bucket_us = *bucket_us;
        }
        if (top_option->count() > 0) {
            options->top = *top;
        }
        exit_status = run(*options, global);
    });
}

} // namespace bb
