#include "cli/commands.h"
#include "cli/option_checks.h"
#include "completion/value_kind.h"
#include "experiment/experiment_diff.h"
#include "report/answer_lines.h"
#include "report/comparison_csv.h"
#include "report/comparison_table.h"
#include "report/html_report.h"
#include "report/initcall_comparison_renderer.h"
#include "report/json_format.h"
#include "report/junit_format.h"
#include "report/phase_attribution.h"
#include "report/phase_view.h"
#include "report/report_format.h"
#include "report/sample_query.h"
#include "report/text_table.h"
#include "report/verdict.h"
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

namespace bb {

namespace {

const std::vector<std::string>& compare_formats() {
    static const std::vector<std::string> values{"text", "md", "csv", "json", "html"};
    return values;
}
struct CompareCommandOptions {
    long long a = 0;
    long long b = 0;
    std::vector<std::string> by;
    std::string metric = "boot_seconds";
    std::string format = "text";
    std::string junit;
    std::string output; // -o: the report to this file instead of stdout
    bool force = false; // replace an existing -o or --junit file
    double threshold_percent = 0;
    bool include_failed = false;
    bool include_loaded = false;
    double alpha = 0.05;
    bool across_experiments = false;
    bool phases = false;
    bool initcalls = false;
    int top = 15; // --initcalls: rows per group beyond the moved initcalls
};

constexpr const char* k_compare_help =
    R"(Compare run B against run A group by group: the medians of A and B, the Hodges-Lehmann
shift B − A (the median of all differences) with its exact Mann-Whitney interval, the ratio
B / A on the log scale with its interval, the coverage those intervals really have, the
Mann-Whitney p-value and, in brackets, the same p Holm-adjusted over the groups compared.
Lower is better: "slower" when the Holm-adjusted p is at most --alpha (default 0.05) and the
shift is positive, "faster" when negative, "no difference shown" otherwise, "insufficient data" when no
interval reaches 1 − alpha (at 0.05: fewer than 4 used boots on a side; 3 vs 3 can never reach
p < 0.10). docs/reporting.md ("Methods") explains each. The last line counts the verdicts and
gives the geometric mean of the groups' B / A ratios (descriptive, no interval).
Samples are selected as in `bootbench report` (used boots: ok, parameters applied, not loaded);
--include-failed and --include-loaded add failed and foreign-loaded boots, each line says how
many of them entered it.

Runs of different experiments are refused (their cells may share keys and still measure
different things: an L2 command line, a workload, a variable store are not in the key); the
error names the settings in which the two files differ, and --across-experiments compares them
anyway. Runs of one experiment whose file changed between them get a warning naming the
changed settings.

Groups pair by identical cell (the same point of the matrix in both runs). --by pairs the
groups that share values of the given axes instead: --by variant pools every cell of a
variant, so runs of different matrices can be compared variant by variant.

--phases adds where the shift goes: each boot's endpoint divided into its phases (firmware =
qemu start → the console's first byte, pre-banner = first byte → the kernel's banner, kernel =
banner → "Run /init", init = Run /init → the marker; docs/reporting.md), and per group and
phase the Hodges-Lehmann shift B − A of the boots' phase values with its exact Mann-Whitney
interval (each its own, not adjusted over the phases). A phase carries the shift when its
interval excludes 0. The boot is the unit; a boot without a moment (no banner under `quiet`, no
marker after a hang) adds nothing to the phases that need it. Nested boots, timed from L2's
start, do not divide into these phases and are left out (counted). The exit status stays the
endpoint's.

--initcalls adds which initcalls moved, from boots traced with initcall_debug (`trace:
initcalls`, docs/experiments.md#trace): per group and initcall the Hodges-Lehmann shift B − A of
the per-boot durations (0 in a boot that did not run it: an initcall a patch adds moves by its
whole time) with its exact interval and p; over the hundreds of initcalls, an initcall moved
when its Benjamini-Hochberg q is at most --alpha (false discovery rate), with Holm's p beside
it for the family-wise view. The kernel's time to /init and the initcalls' sum are tested
alike, and the moved initcalls' shifts are summed beside the time to /init's: the rest is what
no single initcall explains. Every moved initcall is listed, and the largest others up to
--top (default 15). Text, md, json and html; the exit status stays the endpoint's.

Failed boots are a result: a group in which B's boots failed (timeout, panic, crash, ...) where
A's did not, or failed more often by Fisher's exact test (one-sided, at --alpha), fails the
comparison whatever its times say; the lines below the table give the counts and p, and JUnit
marks the testcase failed.

Exit status: 0 when no group is significantly slower in B and none fails more, 1 when one is or
does (a CI gate), 2 on
errors (unknown run, metric or axis; nothing in common to compare), 3 when the database stayed
locked, 70 on a bug in bootbench. --threshold PCT also requires a change to exceed PCT
percent before it counts (in either direction).
--junit FILE writes one JUnit testcase per group: failed when slower, skipped when there is
not enough data (atomically, like report -o: an existing FILE that is not a regular file is
refused).

Examples:
  bootbench compare 12 15
  bootbench compare 12 15 --by variant --threshold 1 --junit compare.xml
  bootbench compare 12 15 --metric max_phase --format md
  bootbench compare 12 15 --format json | jq '.groups[] | select(.verdict == "slower")'
  bootbench compare 12 15 --format csv -o compare.csv   # numeric columns, for R or a sheet
  bootbench compare 12 15 --format html -o compare.html
  bootbench compare 12 15 --phases                  which phases carry the shift
  bootbench compare 12 15 --phases --format json | jq '.phases.groups[].carried_by'
  bootbench compare 12 15 --initcalls --by variant    which initcalls carry the shift
)";

// compare --phases: the same groups' boots divided into phases, each phase's shift B − A.
// The two runs' phases and their attribution, kept together: each GroupAttribution points at
// its groups in `a` and `b` (returning the attribution alone left those pointers dangling, a
// heap use after free that ASan found in `compare --phases`).
struct PhaseComparison {
    PhaseSet a;
    PhaseSet b;
    PhaseAttribution attribution;
};

std::unique_ptr<const PhaseComparison> phase_attribution(const CompareCommandOptions& options,
                                                         Database& db, SampleQuery query,
                                                         const EstimateOptions& estimates) {
    auto phases = std::make_unique<PhaseComparison>();
    query.run_ids = {options.a};
    phases->a = query_phases(db, query);
    query.run_ids = {options.b};
    phases->b = query_phases(db, query);
    phases->attribution = attribute_phases(phases->a, phases->b, estimates);
    return phases;
}

// compare --initcalls: the same groups' traced boots, each initcall's shift B − A.
InitcallComparison initcall_shifts(const CompareCommandOptions& options, Database& db,
                                   SampleQuery query, const EstimateOptions& estimates) {
    query.run_ids = {options.a};
    const InitcallInputs a = query_initcall_inputs(db, query);
    query.run_ids = {options.b};
    const InitcallInputs b = query_initcall_inputs(db, query);
    return compare_initcalls(a, b, estimates);
}

// Boots left out of the phases (nested: timed from L2's start), said under the section.
std::string left_out_of_phases(const PhaseAttribution& attribution) {
    std::string out;
    int left_out = 0;
    for (const auto& group : attribution.groups) {
        left_out += (group.a ? group.a->from_marker : 0) + (group.b ? group.b->from_marker : 0);
    }
    if (left_out > 0) {
        out = fmt::format("left out of the phases: {} boot{} timed from a start marker (a nested "
                          "boot's L2), not from qemu's start\n",
                          left_out, left_out == 1 ? "" : "s");
    }
    return out;
}

std::string describe(const RunInfo& run) {
    std::string text = fmt::format("run {} (", run.id);
    if (!run.experiment.empty()) {
        text += run.experiment + ", ";
    }
    text += run.started_at;
    if (run.status != RunStatus::Done) {
        text += fmt::format(", {}", to_string(run.status));
    }
    return text + ")";
}

// Cells pair by key, and a key does not carry every setting (an L2 command line, a workload):
// two experiments' cells with equal keys may measure different things. Refused unless asked
// for; the same experiment edited between its runs is a warning.
void check_same_experiment(const RunInfo& a, const RunInfo& b, bool across, bool quiet) {
    const std::vector<std::string> differ =
        experiment_differences(a.experiment_yaml, b.experiment_yaml);
    const std::string keys =
        differ.empty() ? "nothing but the name" : fmt::format("{}", fmt::join(differ, ", "));
    if (a.experiment != b.experiment && !across) {
        throw Error(fmt::format("runs {} and {} are of different experiments ({}, {}; their "
                                "files differ in {}): cells with equal keys may measure "
                                "different things. --across-experiments compares them anyway",
                                a.id, b.id, a.experiment.empty() ? "ad-hoc" : a.experiment,
                                b.experiment.empty() ? "ad-hoc" : b.experiment, keys));
    }
    if (!differ.empty() && !quiet) {
        std::fprintf(stderr,
                     "bootbench: warning: the experiment files of runs %lld and %lld "
                     "differ in %s\n",
                     a.id, b.id, keys.c_str());
    }
}

// A page: the sides, the table, the one-line tally and the answers; the same statistics as the
// text, every column kept.
std::string comparison_html(const ComparisonSet& set, const std::string& label_a,
                            const std::string& label_b, const CompareCommandOptions& options,
                            Database& db, const std::string& appendix) {
    HtmlContext context;
    context.title = fmt::format("bootbench compare: run {} against run {}", options.b, options.a);
    context.subtitle =
        fmt::format("{}; {}: A = {}, B = {}; bootbench {}", db.path().filename().string(),
                    set.metric, label_a, label_b, tool_version());
    std::string body =
        html_table(comparison_table(set)) +
        fmt::format("<p class=\"bb-note\">{}</p>\n", html_escape(comparison_summary_line(set)));
    for (const auto& answer : comparison_answers(set)) {
        body += fmt::format("<p class=\"bb-note\"><strong>{}</strong></p>\n", html_escape(answer));
    }
    return html_page(context, body + appendix);
}

int run(const CompareCommandOptions& options, const GlobalOptions& global) {
    const auto format = parse_report_format(options.format);
    if (!format) {
        throw Error(fmt::format("--format {}: unknown format{}; use text, md, csv, json or html",
                                options.format,
                                did_you_mean_note(options.format, compare_formats())));
    }
    if (options.phases && options.metric != "boot_seconds") {
        throw Error(fmt::format("--metric {}: --phases divides the endpoint boot_seconds into "
                                "its phases; drop --metric or --phases",
                                options.metric));
    }
    if (options.initcalls && options.metric != "boot_seconds") {
        throw Error(fmt::format("--metric {}: --initcalls reads the initcalls of the boots the "
                                "endpoint boot_seconds uses; drop --metric or --initcalls",
                                options.metric));
    }
    if (options.initcalls && *format == ReportFormat::Csv) {
        throw Error("--initcalls: csv holds the groups' comparison only; use --format json (or "
                    "report --view initcalls --format csv per run)");
    }
    if (options.a == options.b) {
        // A run against itself can only say "no difference": a typo, never a comparison.
        throw Error(fmt::format("compare {} {}: a run compared with itself shows nothing; give "
                                "two runs (bootbench runs lists them)",
                                options.a, options.b));
    }
    if (options.threshold_percent < 0) {
        throw Error(
            fmt::format("--threshold {}: must be a percentage >= 0", options.threshold_percent));
    }
    // Before the verdict is printed, not after it.
    for (const auto& file : {options.junit, options.output}) {
        if (!file.empty()) {
            check_command_output(file, global.db_path(), options.force);
        }
    }
    Database db(global.db_path(), Database::Mode::ReadOnly);
    const RunInfo run_a = describe_run(db, options.a);
    const RunInfo run_b = describe_run(db, options.b);
    check_same_experiment(run_a, run_b, options.across_experiments, global.quiet);

    SampleQuery query;
    if (!options.by.empty()) {
        query.by = parse_axes(fmt::format("{}", fmt::join(options.by, ",")));
    }
    query.metric = options.metric;
    query.include_failed = options.include_failed;
    query.include_loaded = options.include_loaded;
    query.run_ids = {options.a};
    const SampleSet a = query_samples(db, query);
    query.run_ids = {options.b};
    const SampleSet b = query_samples(db, query);
    for (const auto& [set, run] : {std::pair{&a, &run_a}, std::pair{&b, &run_b}}) {
        if (set->boots == 0) {
            throw Error(fmt::format("{} has no boots to compare", describe(*run)));
        }
    }

    EstimateOptions estimates;
    estimates.alpha = options.alpha;
    const ComparisonSet comparison =
        compare_sample_sets(a, b, estimates, options.threshold_percent / 100);
    const std::string label_a = describe(run_a);
    const std::string label_b = describe(run_b);
    std::unique_ptr<const PhaseComparison> phases;
    const PhaseAttribution* attribution = nullptr;
    if (options.phases) {
        phases = phase_attribution(options, db, query, estimates);
        attribution = &phases->attribution;
    }
    std::optional<InitcallComparison> initcalls;
    if (options.initcalls) {
        initcalls = initcall_shifts(options, db, query, estimates);
    }
    std::string out;
    if (*format == ReportFormat::Csv) {
        out = render_comparison_csv(comparison); // machine values: no phases, no notes
    } else if (*format == ReportFormat::Html) {
        out = comparison_html(comparison, label_a, label_b, options, db,
                              initcalls ? initcall_comparison_html(*initcalls, options.top) : "");
    } else if (*format == ReportFormat::Json) {
        nlohmann::json document = comparison_json(comparison, label_a, label_b);
        document["answers"] = comparison_answers(comparison);
        if (attribution) {
            document["phases"] = attribution_json(*attribution);
        }
        if (initcalls) {
            document["initcalls"] = initcall_comparison_json(*initcalls);
        }
        out = document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    } else {
        // As in `report`: two runs' comparison is not what a run's declared analysis asked.
        const bool markdown = *format == ReportFormat::Markdown;
        out = exploratory_note(runs_with_analysis(db, {options.a, options.b}, ""), markdown,
                               global.db_argument()) +
              (markdown ? render_comparison_markdown(comparison, label_a, label_b)
                        : render_comparison_text(comparison, label_a, label_b)) +
              answer_block(comparison_answers(comparison), markdown);
        if (attribution) {
            out +=
                "\n" + render_attribution(*attribution, *format) + left_out_of_phases(*attribution);
        }
        if (initcalls) {
            out += "\n" + render_initcall_comparison(*initcalls, *format, options.top);
        }
        out = terminal_output(markdown ? out : wrap_long_lines(out, table_width()));
    }
    if (options.output.empty()) {
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
    } else {
        write_file_atomically(options.output, out);
    }

    if (!options.junit.empty()) {
        write_file_atomically(options.junit,
                              render_junit(comparison, fmt::format("{}: {} vs {}", options.metric,
                                                                   label_a, label_b)));
    }
    if (run_a.host != run_b.host) {
        std::fprintf(stderr,
                     "bootbench: warning: the runs are from different hosts (%s, %s): a "
                     "difference may be the machine's, not the kernel's\n",
                     terminal_text(run_a.host).c_str(), terminal_text(run_b.host).c_str());
    }
    if (comparison.insufficient > comparison.only_a + comparison.only_b) {
        std::fprintf(stderr,
                     "bootbench: note: a group without an interval at the level asked for (4 used "
                     "boots per side at --alpha 0.05) has no verdict; more repeats help, or pool "
                     "cells with --by (e.g. --by variant)\n");
    }
    if (comparison.only_a + comparison.only_b == static_cast<int>(comparison.groups.size())) {
        throw Error(fmt::format("no group is in both runs, so nothing was compared; pair "
                                "groups by shared axes, e.g. --by variant (grouped by {} now)",
                                fmt::join(comparison.axes, ",")));
    }
    // Slower, or failing more often: both are the kernel under test's result (README: exit 1).
    return comparison.slower > 0 || comparison.failing > 0 ? k_exit_verdict : k_exit_ok;
}
} // namespace

void add_compare_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<CompareCommandOptions>();
    CLI::App* cmd = app.add_subcommand(
        "compare", "Compare two runs group by group (exit 1 when B is significantly slower)");
    cmd->footer(k_compare_help);
    cmd->add_option("A", options->a, "run id of the baseline")->required()->type_name(k_run_value);
    cmd->add_option("B", options->b, "run id to compare against it")
        ->required()
        ->type_name(k_run_value);
    cmd->add_option("--by", options->by, "pair groups by these axes (default: by cell)")
        ->delimiter(',');
    cmd->add_option("--metric", options->metric, "boot_seconds (default) or a metric name");
    cmd->add_option("--format", options->format, "text (default), md, csv, json or html")
        ->type_name(choice_of(compare_formats()));
    cmd->add_option("-o,--output", options->output,
                    "write the report to this file instead of stdout (never the database)");
    cmd->add_option("--junit", options->junit, "also write a JUnit XML report to this file");
    cmd->add_flag("--force", options->force,
                  "replace the -o or --junit file when it exists (never the database)");
    cmd->add_option("--threshold", options->threshold_percent,
                    "ignore changes below this many percent (default 0)")
        ->check(number_in(0, 1000));
    cmd->add_flag("--include-failed", options->include_failed,
                  "use failed boots that have a value too");
    cmd->add_flag("--include-loaded", options->include_loaded,
                  "use boots under foreign host load too");
    cmd->add_flag("--across-experiments", options->across_experiments,
                  "compare runs of different experiments (refused by default)");
    cmd->add_flag("--phases", options->phases,
                  "also attribute the shift to the boot's phases (firmware, pre-banner, kernel, "
                  "init)");
    cmd->add_flag("--initcalls", options->initcalls,
                  "also test which initcalls moved (traced boots: trace: initcalls)");
    CLI::Option* top =
        cmd->add_option("--top", options->top,
                        "--initcalls: the largest shifts shown beyond the moved ones (default 15)")
            ->check(CLI::Range(1, 100000));
    cmd->add_option("--alpha", options->alpha,
                    "significance level of the verdicts, Holm-adjusted over the groups "
                    "(default 0.05)")
        ->check(number_in(0.0001, 0.5));
    cmd->callback([options, top, &global, &exit_status] {
        if (top->count() > 0 && !options->initcalls) {
            throw Error("--top belongs to --initcalls (the initcalls listed per group)");
        }
        exit_status = run(*options, global);
    });
}

} // namespace bb
