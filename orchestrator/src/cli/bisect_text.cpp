#include "cli/bisect_text.h"

#include "bisect/bisect_step_experiment.h"
#include "report/render_support.h"
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
std::string shift_text(const stats::Result& shift, const Endpoint& endpoint) {
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

// "prefix-4 − prefix-0 +302.1 ms [...]"; a middle step shows both of its shifts.
std::string step_shifts(const StepOutcome& outcome, const Endpoint& endpoint) {
    const BisectStep& s = outcome.step;
    std::string text = fmt::format("{} − {} {}", prefix_name(s.newer), prefix_name(s.older),
                                   shift_text(outcome.verdict.shift, endpoint));
    if (s.middle()) {
        text += fmt::format(", {} − {} {}", prefix_name(s.upper), prefix_name(s.newer),
                            shift_text(outcome.verdict.upper_shift, endpoint));
    }
    return text;
}

std::string verdict_words(const StepOutcome& outcome, const Endpoint& endpoint) {
    const BisectStep& s = outcome.step;
    switch (outcome.verdict.kind) {
    case StepVerdict::Kind::Changed:
        return fmt::format("the series changed {}", endpoint.label());
    case StepVerdict::Kind::LikeOld:
        return fmt::format("{} differs from {}: the change is after patch {}", prefix_name(s.newer),
                           prefix_name(s.upper), s.newer);
    case StepVerdict::Kind::LikeNew:
        return fmt::format("{} differs from {}: the change is in patches {}..{}",
                           prefix_name(s.newer), prefix_name(s.older), s.older + 1, s.newer);
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

std::string rounds_text(const StepOutcome& outcome) {
    const int rounds = outcome.verdict.rounds;
    return outcome.step.middle() ? fmt::format("{}+{}+{} boots", rounds, rounds, rounds)
                                 : fmt::format("{}+{} boots", rounds, rounds);
}

std::string undecided_answer(const BisectReport& report, const StepOutcome& stuck) {
    const Bisection& bisection = report.bisection;
    if (!stuck.step.middle()) {
        return fmt::format("undecided: the series' end ({}) does not differ from its base ({}) "
                           "in {}: {}; {}",
                           prefix_name(stuck.step.newer), prefix_name(stuck.step.older),
                           rounds_text(stuck), shift_text(stuck.verdict.shift, report.endpoint),
                           boots_and_steps(report));
    }
    return fmt::format("undecided: step {} ({}) could not separate {} from either end in {}: "
                       "{}; the change lies in patches {}..{}; {}",
                       bisection.steps().size(), step_label(stuck.step),
                       prefix_name(stuck.step.newer), rounds_text(stuck),
                       step_shifts(stuck, report.endpoint), bisection.range_start() + 1,
                       bisection.first_changed_patch(), boots_and_steps(report));
}

} // namespace

std::string bisect_step_line(const StepRun& step, const BisectReport& report) {
    return fmt::format("step {}: {}: {} after {}: {} ({} {})", step.number,
                       step_label(step.outcome.step), step_shifts(step.outcome, report.endpoint),
                       rounds_text(step.outcome), verdict_words(step.outcome, report.endpoint),
                       step.stored ? "stored in run" : "run", step.run_id);
}

std::string bisect_answer(const BisectReport& report) {
    const Bisection& bisection = report.bisection;
    if (const auto effect = bisection.effect()) {
        const int patch = bisection.first_changed_patch();
        return fmt::format("first patch that changed {}: {} (patch {} of {}): {} (median shift, "
                           "{} → {}), {}",
                           report.endpoint.label(),
                           report.patches[static_cast<size_t>(patch - 1)].filename().string(),
                           patch, report.patches.size(),
                           shift_text(*effect->shift, report.endpoint), prefix_name(effect->older),
                           prefix_name(effect->newer), boots_and_steps(report));
    }
    if (const StepOutcome* stuck = bisection.undecided_step()) {
        return undecided_answer(report, *stuck);
    }
    return "interrupted before an answer: run the same command again to go on";
}

namespace {
std::string_view kind_name(StepVerdict::Kind kind) {
    switch (kind) {
    case StepVerdict::Kind::Changed:
        return "changed";
    case StepVerdict::Kind::LikeOld:
        return "like-older";
    case StepVerdict::Kind::LikeNew:
        return "like-newer";
    case StepVerdict::Kind::Undecided:
        return "undecided";
    case StepVerdict::Kind::Continue:
        break;
    }
    return "not-decided";
}

nlohmann::json step_json(const StepRun& step) {
    const StepOutcome& outcome = step.outcome;
    return {{"number", step.number},
            {"older", prefix_name(outcome.step.older)},
            {"newer", prefix_name(outcome.step.newer)},
            {"upper", outcome.step.middle() ? nlohmann::json(prefix_name(outcome.step.upper))
                                            : nlohmann::json(nullptr)},
            {"verdict", kind_name(outcome.verdict.kind)},
            {"rounds", outcome.verdict.rounds},
            {"shift", result_json(outcome.verdict.shift)},
            {"upper_shift", outcome.step.middle() ? result_json(outcome.verdict.upper_shift)
                                                  : nlohmann::json(nullptr)},
            {"run_id", step.run_id},
            {"boots", step.boots},
            {"stored", step.stored}};
}
} // namespace

nlohmann::json bisect_json(const BisectReport& report) {
    nlohmann::json patches = nlohmann::json::array();
    for (const auto& patch : report.patches) {
        patches.push_back(patch.filename().string());
    }
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : report.steps) {
        steps.push_back(step_json(step));
    }
    const auto effect = report.bisection.effect();
    // Shifts are newer − older in the endpoint's unit: seconds for boot time and *_seconds
    // metrics (as the text prints them, scaled), else the metric's own (null here).
    return {
        {"endpoint", report.endpoint.label()},
        {"shift_unit", in_seconds(report.endpoint) ? nlohmann::json("s") : nlohmann::json(nullptr)},
        {"patches", patches},
        {"steps", steps},
        {"boots", report.boots()},
        {"interrupted", report.interrupted},
        {"found", report.bisection.found()},
        {"first_changed_patch",
         effect ? nlohmann::json(report.bisection.first_changed_patch()) : nlohmann::json(nullptr)},
        {"effect", effect ? result_json(*effect->shift) : nlohmann::json(nullptr)},
        {"answer", bisect_answer(report)}};
}

} // namespace bb
