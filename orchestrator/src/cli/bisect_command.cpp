#include "bisect/bisect_runner.h"
#include "cli/bisect_text.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress_sinks.h"
#include "cli/quiet_options.h"
#include "experiment/experiment_parser.h"
#include "experiment/matrix.h"
#include "kernel/git_series.h"
#include "pipeline/experiment_files.h"
#include "report/render_support.h"
#include "util/error.h"
#include "util/paths.h"
#include "util/terminal.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <yaml-cpp/yaml.h>

namespace bb {

namespace {
struct BisectCommandOptions {
    std::string file;
    std::string variant;
    std::string commits; // REPO:A..B
    std::string metric;
    int max_boots = 20;
    double alpha = 0.05;
    double min_effect_percent = 0;
    long long seed = -1;
    int slots = 0;
    int jobs = 0;
    std::vector<std::string> only;
    bool json = false;
    QuietCliOptions quiet;
};

constexpr const char* k_bisect_help =
    R"(Find which patch of a series moved a metric. The series is the patches: list of one
variant of an experiment file (--variant, or the only variant with patches); prefix k is the
base kernel plus patches 1..k. Step 1 boots prefix 0 and prefix N interleaved, one round (a
boot of each, in a seeded order) at a time, until the Hodges-Lehmann shift's exact
Mann-Whitney interval excludes 0. Each later step boots the middle prefix beside both ends of
the range still holding the change: when the middle has moved from the older end the change
is in it or before, when it differs from the newer end the change comes after it. A step
looks after every round up to --max-boots rounds; --alpha is the chance that the whole bisect
names a wrong patch, split over its steps and their looks (Bonferroni). --min-effect 5 asks
for more than a move: an interval wholly beyond ±5 % of the older kernel's median, so two
builds of the same code that boot a few percent apart on a noisy host do not decide a step.

--commits REPO:A..B bisects a local git range instead of a patches: list: its commits,
oldest first, are exported once with git format-patch (into the cache, named
NNNN-<commit>-<subject>.patch) and become the series of the variant (which must have no
patches), so prefix k is commit k's tree. The base is the file's kernel source, or commit A
when the file names none. The range must be linear (no merges) and change no binary file.

Every step is a stored run of the experiment <name>-bisect-<older>v<newer>[v<upper>] (variants
prefix-K): `bootbench report --experiment NAME --view verdict` and `compare` read it.
Re-running the same command reads the decided steps back and boots only what is missing; a
larger --max-boots continues an undecided step. Kernels are built as `run` builds them
(cached; -j for make). The machine, axes and guest are the file's; a file with several cells
per kernel needs --only AXIS=VALUE to pick one.

Exit status: 0 a patch was named; 1 undecided (a step could not decide within --max-boots;
the message names it and the patches the change lies in); 2 usage or configuration error;
3 a build, boot lane or the database failed; 70 a bug in bootbench; 130 interrupted (run it
again to go on).
docs/bisect.md explains the rule and its error rates.

Examples:
  bootbench bisect configs/bisect-delay.yaml -j 2      # the only variant with patches
  bootbench bisect configs/bisect-delay.yaml --metric boot_seconds --max-boots 30
  bootbench bisect configs/bisect-delay.yaml --variant series --alpha 0.01
  bootbench bisect configs/srcu-boot-kvmhost.yaml --variant before --only hz=250   # one cell per kernel
  bootbench bisect configs/my-patch.yaml --commits ~/linux:v6.12..my-branch   # a git range
)";

// --commits: the range's commits become the series of the chosen variant (--variant, or the
// only one), which must have no patches of its own; a file without a source gets the range's
// base as its source. The file's text is rewritten and parsed again, because each bisect step
// derives its experiment from the text (bisect_step_experiment.h). Returns the variant's name.
std::string use_git_series(Experiment& experiment, const std::string& variant_name,
                           const std::string& commits) {
    const GitRange range = parse_git_range(commits);
    YAML::Node root = YAML::Load(experiment.text);
    YAML::Node variant;
    for (YAML::Node candidate : root["kernel"]["variants"]) {
        if (variant_name.empty() ? root["kernel"]["variants"].size() == 1
                                 : candidate["name"].as<std::string>() == variant_name) {
            variant = candidate;
        }
    }
    if (!variant) {
        throw Error(variant_name.empty()
                        ? "--commits: the file has several variants: name the one to bisect "
                          "with --variant"
                        : fmt::format("--variant {}: no such variant in the file", variant_name));
    }
    const std::string name = variant["name"].as<std::string>();
    if (variant["patches"] && variant["patches"].size() > 0) {
        throw Error(fmt::format("--commits: variant {} has patches: of its own; with --commits "
                                "the range is the series",
                                name));
    }
    const GitSeries series = export_git_series(range, cache_dir());
    for (const auto& patch : series.patches) {
        variant["patches"].push_back(patch.string());
    }
    if (!root["kernel"]["source"]) {
        root["kernel"]["source"] = fmt::format("git:{}@{}", range.repo.string(), series.base);
    }
    const std::string source = root["kernel"]["source"].as<std::string>();
    experiment = parse_experiment(fmt::format("# {} with --commits {}\n{}\n", experiment.file_name,
                                              commits, YAML::Dump(root)),
                                  experiment.file_name);
    std::fprintf(stderr, "series: the %zu commits of %s %s..%s on %s\n", series.commits.size(),
                 range.repo.c_str(), range.from.c_str(), range.to.c_str(), source.c_str());
    return name;
}

Endpoint metric_endpoint(const std::string& metric) {
    if (metric == "boot_seconds") {
        return {};
    }
    return {EndpointKind::Metric, metric};
}

int bisect(const BisectCommandOptions& options, const GlobalOptions& global) {
    Experiment experiment = load_experiment(options.file);
    check_experiment_files(experiment);
    BisectOptions bisect;
    bisect.variant = options.variant;
    if (!options.commits.empty()) {
        bisect.variant = use_git_series(experiment, options.variant, options.commits);
    }
    if (!options.metric.empty()) {
        bisect.endpoint = metric_endpoint(options.metric);
    }
    bisect.limits = {options.max_boots, options.alpha, options.min_effect_percent / 100};
    if (options.seed >= 0) {
        bisect.seed = static_cast<std::uint64_t>(options.seed);
    }
    bisect.run.slots = options.slots;
    bisect.run.build_jobs = options.jobs;
    bisect.run.only = parse_axis_restrictions(options.only);
    bisect.run.quiet = quiet_overrides(options.quiet);
    bisect.run.command_line = global.command_line;
    StatusLine status;
    status.set_quiet(global.quiet);
    const RunProgress run_progress_sinks = run_progress(status, global);
    const BisectProgress progress{run_progress_sinks,
                                  [&](const StepRun& step, const BisectReport& report) {
                                      run_progress_sinks.note(bisect_step_line(step, report));
                                  }};
    Database db(global.db_path());
    const BisectReport report = run_bisect(db, experiment, bisect, progress);
    status.clear();
    if (options.json) {
        std::fputs(json_document(bisect_json(report)).c_str(), stdout);
    } else {
        std::printf("%s\n", bisect_answer(report).c_str());
    }
    if (report.interrupted) {
        return k_exit_interrupted;
    }
    return report.bisection.found() ? k_exit_ok : k_exit_verdict;
}
} // namespace

void add_bisect_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<BisectCommandOptions>();
    CLI::App* cmd = app.add_subcommand(
        "bisect", "Find the patch of a series that moved a metric (boots each step until decided)");
    cmd->footer(k_bisect_help);
    cmd->add_option("file", options->file, "experiment YAML file")->required();
    cmd->add_option("--variant", options->variant,
                    "the variant whose patches: are the series (default: the only one with "
                    "patches)");
    cmd->add_option("--commits", options->commits,
                    "REPO:A..B: bisect the commits of a local git range instead (linear, "
                    "exported with git format-patch; base: the file's source, else A)");
    cmd->add_option("--metric", options->metric,
                    "boot_seconds or a metric (default: the file's analysis endpoint, else "
                    "boot_seconds)");
    cmd->add_option("--max-boots", options->max_boots,
                    "most boots of each kernel per step (default 20)")
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--alpha", options->alpha, "chance of naming a wrong patch (default 0.05)")
        ->check(number_in(0.0001, 0.5));
    cmd->add_option("--min-effect", options->min_effect_percent,
                    "PCT: the smallest move that counts, in percent of the older kernel's "
                    "median (default 0: any shift whose interval excludes 0)")
        ->check(number_in(0, 99));
    cmd->add_option("--seed", options->seed, "order of each round (default: the file's, else 1)")
        ->check(non_negative_integer());
    cmd->add_option("--slots", options->slots, "parallel guests (default: as many as fit)")
        ->check(non_negative_integer());
    cmd->add_option("-j,--jobs", options->jobs, "make -j for kernel builds")
        ->check(non_negative_integer());
    cmd->add_option("--only", options->only,
                    "AXIS=VALUE: the one cell of each kernel to boot (repeatable)");
    cmd->add_flag("--json", options->json,
                  "print the answer as JSON: every step's shifts and verdict, the patch named");
    add_quiet_options(*cmd, options->quiet);
    cmd->callback([options, &global, &exit_status] { exit_status = bisect(*options, global); });
}

} // namespace bb
