#include "bisect/bisect_runner.h"

#include "bisect/bisect_rounds.h"
#include "bisect/bisect_step_experiment.h"
#include "experiment/matrix.h"
#include "store/boot_store.h"
#include "util/error.h"
#include "util/hash.h"

#include <fmt/format.h>

namespace bb {

namespace {

constexpr std::uint64_t k_default_seed = 1;

struct StepPlan {
    Experiment experiment;
    StepJudge judge;
};

StepPlan plan_step(const Experiment& experiment, const StepDesign& design,
                   const BisectLimits& limits, const BisectOptions& options,
                   const BisectStep& step) {
    StepPlan plan{step_experiment(experiment, design, step), {}};
    const std::vector<Cell> cells =
        restrict_cells(plan.experiment, expand_matrix(plan.experiment), options.run.only);
    const size_t kernels = plan.experiment.kernel.variants.size();
    if (cells.size() != kernels) {
        throw Error(fmt::format(
            "{}: bisect compares one cell per kernel, but {} has {} cells per prefix{}; pick one "
            "with --only AXIS=VALUE for each axis with several values",
            experiment.file_name, experiment.name, cells.size() / kernels,
            options.run.only.empty() ? "" : " after --only"));
    }
    plan.judge.endpoint = design.endpoint;
    plan.judge.limits = limits;
    for (const auto& cell : cells) {
        plan.judge.cells.push_back(cell.cell_key);
    }
    return plan;
}

// The step's stored run, when an earlier bisect finished it; nothing to boot then.
std::optional<StepRun> stored_step(Database& db, const StepPlan& plan, std::uint64_t seed) {
    BootStore store(db);
    const auto run = store.find_run(plan.experiment.name, static_cast<long long>(seed), "adhoc");
    if (!run || run->experiment_sha256 != sha256_hex(plan.experiment.text)) {
        return std::nullopt;
    }
    const StoredStep judged = judge_stored_step(db, run->run_id, plan.judge);
    if (judged.verdict.kind == StepVerdict::Kind::Continue) {
        return std::nullopt;
    }
    return StepRun{0, {{}, judged.verdict}, run->run_id, judged.boots, true};
}

StepRun boot_step(Database& db, const StepPlan& plan, const BisectOptions& options,
                  std::uint64_t seed, const RunProgress& progress, bool& interrupted) {
    BisectRounds rounds(db, plan.judge, seed);
    RunOptions run = options.run;
    run.seed = seed;
    run.rounds = &rounds;
    const RunReport report = run_experiment(db, plan.experiment, run, progress);
    const StoredStep judged = judge_stored_step(db, report.run_id, plan.judge);
    interrupted = report.status == RunStatus::Interrupted;
    if (!interrupted && judged.verdict.kind == StepVerdict::Kind::Continue) {
        throw RuntimeFailure(fmt::format("bisect: run {} of {} ended ({}) before its step was "
                                         "decided; run the same bisect again to go on",
                                         report.run_id, plan.experiment.name,
                                         to_string(report.status)));
    }
    return StepRun{0, {{}, judged.verdict}, report.run_id, judged.boots, false};
}

Endpoint chosen_endpoint(const Experiment& experiment, const BisectOptions& options) {
    if (options.endpoint) {
        return *options.endpoint;
    }
    return experiment.analysis ? experiment.analysis->endpoint : Endpoint{};
}

} // namespace

int BisectReport::boots() const {
    int total = 0;
    for (const auto& step : steps) {
        total += step.boots;
    }
    return total;
}

BisectReport run_bisect(Database& db, const Experiment& experiment, const BisectOptions& options,
                        const BisectProgress& progress) {
    const Variant& series = series_variant(experiment, options.variant);
    const std::uint64_t seed = options.seed.value_or(experiment.seed.value_or(k_default_seed));
    BisectReport report{chosen_endpoint(experiment, options),
                        series.patches,
                        Bisection(static_cast<int>(series.patches.size())),
                        {},
                        false};
    // α is the whole bisection's: each step gets its share (bisection.h, max_steps).
    const BisectLimits step_limits{options.limits.max_boots,
                                   options.limits.alpha /
                                       max_steps(static_cast<int>(series.patches.size())),
                                   options.limits.min_effect};
    look_schedule(step_limits); // refuses limits that can never decide, before any build
    const StepDesign design{&series, report.endpoint, seed};
    while (const auto step = report.bisection.next_step()) {
        const StepPlan plan = plan_step(experiment, design, step_limits, options, *step);
        std::optional<StepRun> ran = stored_step(db, plan, seed);
        if (!ran) {
            ran = boot_step(db, plan, options, seed, progress.run, report.interrupted);
        }
        if (report.interrupted) {
            return report;
        }
        ran->number = static_cast<int>(report.steps.size()) + 1;
        ran->outcome.step = *step;
        report.bisection.record(ran->outcome);
        report.steps.push_back(*ran);
        progress.step(report.steps.back(), report);
    }
    return report;
}

} // namespace bb
