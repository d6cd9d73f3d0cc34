#include "nightly/nightly.h"

#include "report/estimates.h"
#include "report/run_summary.h"
#include "store/boot_store.h"
#include "util/file_lock.h"
#include "util/paths.h"
#include "util/units.h"

#include <fmt/format.h>
#include <map>

namespace bb {

namespace fs = std::filesystem;

NightlyResult run_nightly(Database& db, const Experiment& experiment, const NightlyOptions& options,
                          const RunProgress& progress) {
    const FileLock lock(cache_dir() / "locks" / ("nightly-" + experiment.name + ".lock"),
                        "a nightly of " + experiment.name);
    BootStore store(db);
    NightlyResult result;
    result.baseline_run = store.last_good_nightly(experiment.name);
    RunOptions run_options = options.run;
    run_options.mode = "nightly";
    // Each night measures anew (docs/nightly.md): a fresh seed, never last night's run resumed,
    // even when the experiment file pins a seed.
    run_options.fresh_run = true;
    result.run = run_experiment(db, experiment, run_options, progress);

    const auto tonight = load_run_results(db, result.run.run_id);
    std::string table;
    if (result.baseline_run) {
        std::map<std::string, std::vector<double>> before;
        for (const auto& cell : load_run_results(db, *result.baseline_run)) {
            before[cell.cell_key] = cell.boot_seconds;
        }
        table = "| cell | baseline median | tonight median | change [95% CI] | verdict |\n"
                "|---|---:|---:|---:|---|\n";
        for (const auto& cell : tonight) {
            const auto it = before.find(cell.cell_key);
            if (it == before.end()) {
                continue; // a new cell has nothing to compare with
            }
            const Comparison c =
                compare_medians(it->second, cell.boot_seconds, {}, options.threshold);
            switch (c.verdict) {
            case Comparison::Verdict::Slower:
                ++result.slower;
                break;
            case Comparison::Verdict::Faster:
                ++result.faster;
                break;
            case Comparison::Verdict::NoChange:
                ++result.unchanged;
                break;
            case Comparison::Verdict::Insufficient:
                ++result.insufficient;
                break;
            }
            table += fmt::format("| `{}` | {} | {} | {:+.1f}% [{:+.3f} s, {:+.3f} s] | {} |\n",
                                 cell.cell_key, format_seconds(c.median_a),
                                 format_seconds(c.median_b), c.relative_change * 100,
                                 c.difference_ci.low, c.difference_ci.high, to_string(c.verdict));
        }
    }
    const bool complete = result.run.status == RunStatus::Done;
    if (complete) {
        store.set_nightly_verdict(result.run.run_id, result.regression() ? "regression" : "ok",
                                  result.baseline_run);
    }

    const fs::path dir =
        options.report_dir.empty() ? cache_dir() / "nightly" / experiment.name : options.report_dir;
    result.report_path = dir / fmt::format("run-{}.md", result.run.run_id);
    std::string report = fmt::format(
        "# Nightly {} — run {}\n\nStatus: {}. Seed {}. Samples: {} booted, {} failed, {} under "
        "foreign load.\n\n",
        experiment.name, result.run.run_id, to_string(result.run.status), result.run.seed,
        result.run.samples_run, result.run.samples_failed, result.run.samples_contaminated);
    if (result.baseline_run) {
        report +=
            fmt::format("Compared with the last good nightly, run {} (threshold {:.1f}%): "
                        "{} slower, {} faster, {} unchanged, {} with too few samples.\n\n{}\n",
                        *result.baseline_run, options.threshold * 100, result.slower, result.faster,
                        result.unchanged, result.insufficient, table);
    } else {
        report += "No earlier good nightly of this experiment: this run becomes the baseline.\n\n";
    }
    report += "## Results\n\n```\n" + render_run_summary(tonight) + "```\n";
    write_file_atomically(result.report_path, report);
    return result;
}

} // namespace bb
