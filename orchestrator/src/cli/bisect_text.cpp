#include "cli/bisect_text.h"

#include "runner/bisect_step_experiment.h"
#include "util/units.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

bool in_seconds(const Endpoint& endpoint) {
    return endpoint.kind == EndpointKind::BootSeconds ||
           (endpoint.kind == EndpointKind::Metric && endpoint.name.ends_with("_seconds"));
}

std::string signed_value(double value, const Endpoint& endpoint) {
    if (in_seconds(endpoint)) {
        return (value < 0 ? "-" : "+") + format_seconds(std::fabs(value));
    }
    return fmt::format("{:+.4g}", value);
}

std::string plain_value(double value, const Endpoint& endpoint) {
    if (in_seconds(endpoint)) {
        return (value < 0 ? "-" : "") + format_seconds(std::fabs(value));
    }
    return fmt::format("{:.4g}", value);
}

// "+302.1 ms [290.0 ms, 310.2 ms] (99.2 %)", or why there is no interval yet.
std::string shift_text(const StepVerdict& verdict, const Endpoint& endpoint) {
    const stats::Result& shift = verdict.shift;
    if (std::isnan(shift.estimate)) {
        return "no estimate";
    }
    const std::string interval =
        std::isnan(shift.interval.low)
            ? std::string("no interval")
            : fmt::format("[{}, {}] ({:.1f} %)", plain_value(shift.interval.low, endpoint),
                          plain_value(shift.interval.high, endpoint), shift.confidence * 100);
    return fmt::format("{} {}", signed_value(shift.estimate, endpoint), interval);
}

std::string verdict_words(const StepRun& step, const Endpoint& endpoint) {
    const BisectStep& s = step.outcome.step;
    const StepVerdict& verdict = step.outcome.verdict;
    switch (verdict.kind) {
    case StepVerdict::Kind::Changed:
        return fmt::format("the series changed {}", endpoint.label());
    case StepVerdict::Kind::LikeOld:
        return fmt::format("like {} (below half the series' shift, {}): the change is after "
                           "patch {}",
                           prefix_name(s.older), signed_value(verdict.threshold, endpoint),
                           s.newer);
    case StepVerdict::Kind::LikeNew:
        return fmt::format("like the series' end (beyond half its shift, {}): the change is in "
                           "patches {}..{}",
                           signed_value(verdict.threshold, endpoint), s.older + 1, s.newer);
    case StepVerdict::Kind::Undecided:
        return "undecided";
    case StepVerdict::Kind::Continue:
        break;
    }
    return "not decided yet";
}

std::string boots_and_steps(const BisectReport& report) {
    return fmt::format("{} boots in {} step{}", report.boots(), report.steps.size(),
                       report.steps.size() == 1 ? "" : "s");
}

} // namespace

std::string bisect_step_line(const StepRun& step, const BisectReport& report) {
    const BisectStep& s = step.outcome.step;
    const int rounds = step.outcome.verdict.rounds;
    return fmt::format(
        "step {}: {} vs {}: {} after {}+{} boots: {} ({} {})", step.number, prefix_name(s.newer),
        prefix_name(s.older), shift_text(step.outcome.verdict, report.endpoint), rounds, rounds,
        verdict_words(step, report.endpoint), step.stored ? "stored in run" : "run", step.run_id);
}

std::string bisect_answer(const BisectReport& report) {
    const Bisection& bisection = report.bisection;
    if (const StepOutcome* effect = bisection.effect_step()) {
        const int patch = bisection.first_changed_patch();
        return fmt::format("first patch that changed {}: {} (patch {} of {}): {} (median shift, "
                           "{} → {}), {}",
                           report.endpoint.label(),
                           report.patches[static_cast<size_t>(patch - 1)].filename().string(),
                           patch, report.patches.size(),
                           shift_text(effect->verdict, report.endpoint),
                           prefix_name(effect->step.older), prefix_name(effect->step.newer),
                           boots_and_steps(report));
    }
    const StepOutcome* stuck = bisection.undecided_step();
    if (stuck == nullptr) {
        return "interrupted before an answer: run the same command again to go on";
    }
    const int rounds = stuck->verdict.rounds;
    if (bisection.steps().size() == 1) {
        return fmt::format("undecided: the series' end ({}) does not differ from its base ({}) "
                           "in {}+{} boots: {}; {}",
                           prefix_name(stuck->step.newer), prefix_name(stuck->step.older), rounds,
                           rounds, shift_text(stuck->verdict, report.endpoint),
                           boots_and_steps(report));
    }
    return fmt::format(
        "undecided: step {} ({} vs {}) could not be separated from either end in "
        "{}+{} boots: {} against half the series' shift, {}; the change lies in "
        "patches {}..{}; {}",
        bisection.steps().size(), prefix_name(stuck->step.newer), prefix_name(stuck->step.older),
        rounds, rounds, shift_text(stuck->verdict, report.endpoint),
        signed_value(stuck->verdict.threshold, report.endpoint), stuck->step.older + 1,
        bisection.first_changed_patch(), boots_and_steps(report));
}

} // namespace bb
