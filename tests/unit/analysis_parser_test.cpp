// The analysis: key and repeats: {min, max, until} of experiment files (docs/experiments.md).
#include "experiment/analysis.h"
#include "experiment/experiment_parser.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <string>

using bb::parse_experiment;

namespace {

// Two variants and one cmdline axis; `tail` is appended at the top level.
std::string with(const std::string& tail) {
    return "name: a\n"
           "kernel:\n"
           "  arch: arm64\n"
           "  variants: [{name: before}, {name: fixed}, {name: other}]\n"
           "axes:\n"
           "  hz: [100, 250]\n"
           "  cmdline:\n"
           "    srcutree.srcu_max_nodelay_phase: [100, 1000]\n"
           "guest:\n"
           "  metrics: [{name: max_phase, regex: 'phase (\\d+)', unit: count}]\n" +
           tail;
}

std::string error_of(const std::string& yaml) {
    return bb::test::thrown_message<bb::Error>([&yaml] { parse_experiment(yaml, "exp.yaml"); });
}

} // namespace

TEST_CASE("analysis: a pair, its defaults and its JSON round trip", "[experiment][analysis]") {
    const auto experiment = parse_experiment(with("analysis:\n"
                                                  "  compare: {variant: [before, fixed]}\n"),
                                             "exp.yaml");
    REQUIRE(experiment.analysis);
    const bb::Analysis& analysis = *experiment.analysis;
    CHECK(analysis.endpoint.kind == bb::EndpointKind::BootSeconds);
    CHECK(analysis.axis == "variant");
    REQUIRE(analysis.pairs.size() == 1);
    CHECK(analysis.pairs[0] == bb::ComparedPair{"before", "fixed"});
    CHECK_FALSE(analysis.paired);
    CHECK(analysis.alpha == 0.05);
    CHECK(analysis.family == bb::HolmFamily::All);
    CHECK(analysis.ratio);
    CHECK(bb::analysis_from_json(bb::analysis_to_json(analysis)) == analysis);
    CHECK_FALSE(parse_experiment(with(""), "exp.yaml").analysis);
}

TEST_CASE("analysis: each against the first, explicit pairs, every option",
          "[experiment][analysis]") {
    const auto each = parse_experiment(with("analysis:\n"
                                            "  compare: {variant: [before, fixed, other]}\n"),
                                       "exp.yaml");
    CHECK(each.analysis->pairs ==
          std::vector<bb::ComparedPair>{{"before", "fixed"}, {"before", "other"}});
    const auto full = parse_experiment(with("analysis:\n"
                                            "  endpoint: {geomean: launch}\n"
                                            "  compare: {hz: [[100, 250]]}\n"
                                            "  paired: round\n"
                                            "  alpha: 1%\n"
                                            "  family: condition\n"
                                            "  ratio: false\n"
                                            "  direction: higher\n"),
                                       "exp.yaml");
    const bb::Analysis& analysis = *full.analysis;
    CHECK(analysis.endpoint == bb::Endpoint{bb::EndpointKind::Geomean, "launch"});
    CHECK(analysis.endpoint.label() == "geomean(launch.*)");
    CHECK(analysis.pairs == std::vector<bb::ComparedPair>{{"100", "250"}});
    CHECK(analysis.paired);
    CHECK(analysis.alpha == Approx(0.01));
    CHECK(analysis.family == bb::HolmFamily::Condition);
    CHECK_FALSE(analysis.ratio);
    CHECK(analysis.direction == bb::Direction::Higher);
    CHECK(bb::analysis_from_json(bb::analysis_to_json(analysis)) == analysis);
}

TEST_CASE("analysis: errors name file, line and column with a suggestion",
          "[experiment][analysis]") {
    CHECK(error_of(with("analysis:\n  compar: {variant: [before, fixed]}\n")) ==
          "exp.yaml:12:3: unknown key \"compar\" (did you mean \"compare\"?)");
    CHECK(error_of(with("analysis:\n  compare: {variannt: [before, fixed]}\n")) ==
          "exp.yaml:12:13: compare: unknown axis \"variannt\" (did you mean \"variant\"?)");
    CHECK(error_of(with("analysis:\n  compare: {smp: [1, 2]}\n")) ==
          "exp.yaml:12:13: compare: \"smp\" is not an axis of this experiment (expected one of: "
          "variant, hz, srcutree.srcu_max_nodelay_phase)");
    CHECK(error_of(with("analysis:\n  compare: {variant: [before, fixd]}\n")) ==
          "exp.yaml:12:31: variant: \"fixd\" is not a value of the variant axis (did you mean "
          "\"fixed\"?)");
    CHECK(error_of(with("analysis:\n  compare: {hz: [100, 300]}\n")) ==
          "exp.yaml:12:23: hz: 300 is not a value of the hz axis (expected 100 or 250)");
    CHECK(error_of(with("analysis:\n  compare: {variant: [before]}\n")) ==
          "exp.yaml:12:22: compare: expected a list of at least two values of variant (each "
          "against the first) or a list of pairs [A, B], got a list");
    CHECK(error_of(with("analysis:\n  compare: {variant: [[before, before]]}\n")) ==
          "exp.yaml:12:32: compare: \"before\" is compared with itself");
    CHECK(error_of(with("analysis:\n  compare: {variant: [before, fixed]}\n  paired: rounds\n")) ==
          "exp.yaml:13:11: paired: \"rounds\" is not allowed (did you mean \"round\"?)");
    CHECK(error_of(with("analysis:\n  compare: {variant: [before, fixed]}\n  alpha: 0.7\n")) ==
          "exp.yaml:13:10: alpha: 0.7 is not a significance level (expected a number below "
          "0.5, e.g. 0.05)");
    CHECK(error_of(with("analysis:\n  endpoint: boot_second\n  compare: {variant: [a, b]}\n")) ==
          "exp.yaml:12:13: endpoint: unknown endpoint \"boot_second\" (did you mean "
          "\"boot_seconds\"?)");
    CHECK(error_of(with("analysis:\n  endpoint: boot_seconds\n")) ==
          "exp.yaml:12:3: analysis: missing required key \"compare\" (expected the compared "
          "values of one axis, e.g. {variant: [before, fixed]}, or trend: {AXIS: [v1, v2, v3]})");
}

TEST_CASE("repeats: a number, or min, max and a precision target", "[experiment][analysis]") {
    const auto plain = parse_experiment(with("repeats: 4\n"), "exp.yaml");
    CHECK(plain.repeats == 4);
    CHECK(plain.max_repeats == 4);
    CHECK_FALSE(plain.until);
    const auto until = parse_experiment(
        with("repeats: {min: 5, max: 30, until: {endpoint: max_phase, ci_halfwidth: 2%}}\n"),
        "exp.yaml");
    CHECK(until.repeats == 5);
    CHECK(until.max_repeats == 30);
    REQUIRE(until.until);
    CHECK(until.until->endpoint == bb::Endpoint{bb::EndpointKind::Metric, "max_phase"});
    CHECK(until.until->ci_halfwidth == Approx(0.02));
    // Without min: 6, the fewest boots with a 95 % interval; the endpoint is the analysis'.
    const auto defaults = parse_experiment(
        with("analysis: {endpoint: max_phase, compare: {variant: [before, fixed]}}\n"
             "repeats: {max: 10, until: {ci_halfwidth: 0.05}}\n"),
        "exp.yaml");
    CHECK(defaults.repeats == 6);
    CHECK(defaults.until->endpoint.name == "max_phase");
}

TEST_CASE("repeats: errors name file, line and column", "[experiment][analysis]") {
    CHECK(error_of(with("repeats: {min: 5, max: 3, until: {ci_halfwidth: 2%}}\n")) ==
          "exp.yaml:11:24: max: expected an integer >= 5, got 3");
    CHECK(error_of(with("repeats: {min: 5, max: 9}\n")) ==
          "exp.yaml:11:10: repeats: missing required key \"until\" (expected the precision to "
          "reach, e.g. {ci_halfwidth: 2%})");
    CHECK(error_of(with("repeats: {max: 9, until: {ci_halfwidth: 200%}}\n")) ==
          "exp.yaml:11:41: ci_halfwidth: expected a relative half-width such as 2% (a fraction "
          "between 0 and 1, or a percentage), got \"200%\"");
    CHECK(error_of(with("repeats: {max: 9, untill: {ci_halfwidth: 2%}}\n")) ==
          "exp.yaml:11:19: unknown key \"untill\" (did you mean \"until\"?)");
    CHECK(error_of(with("repeats: {max: 9, until: {ci_halfwidth: 2%, endpoint: max_phse}}\n")) ==
          "exp.yaml:11:55: endpoint: unknown endpoint \"max_phse\" (did you mean "
          "\"max_phase\"?)");
}

TEST_CASE("analysis: a trend over ordered values, its JSON round trip and its errors",
          "[experiment][analysis]") {
    const auto experiment = parse_experiment(with("analysis:\n"
                                                  "  trend: {variant: [before, fixed, other]}\n"
                                                  "  alpha: 0.01\n"),
                                             "exp.yaml");
    REQUIRE(experiment.analysis);
    const bb::Analysis& analysis = *experiment.analysis;
    CHECK(analysis.is_trend());
    CHECK(analysis.axis == "variant");
    CHECK(analysis.trend == std::vector<std::string>{"before", "fixed", "other"});
    CHECK(analysis.pairs.empty());
    CHECK(bb::analysis_from_json(bb::analysis_to_json(analysis)) == analysis);
    // A run stored before trends existed has no "trend" key and still reads.
    nlohmann::json old = bb::analysis_to_json(analysis);
    old.erase("trend");
    old["pairs"] = nlohmann::json::array({nlohmann::json::array({"before", "fixed"})});
    CHECK_FALSE(bb::analysis_from_json(old).is_trend());

    CHECK(error_of(with("analysis:\n  trend: {variant: [before, fixed]}\n")) ==
          "exp.yaml:12:20: trend: expected at least three values of variant in order (two are a "
          "comparison: compare:), got a list");
    CHECK(error_of(with("analysis:\n  trend: {variant: [before, fixed, before]}\n")) ==
          "exp.yaml:12:36: trend: \"before\" appears twice");
    CHECK(error_of(with("analysis:\n  trend: {variant: [before, fixed, other]}\n"
                        "  compare: {variant: [before, fixed]}\n")) ==
          "exp.yaml:12:3: trend: an analysis declares compare: or trend:, not both");
    CHECK(error_of(with("analysis:\n  trend: {variant: [before, fixed, other]}\n"
                        "  paired: round\n")) ==
          "exp.yaml:13:11: paired: the trend test compares independent groups (paired: none)");
}

TEST_CASE("analysis: secondary endpoints and premises, their JSON round trip and their errors",
          "[experiment][analysis]") {
    const auto experiment =
        parse_experiment(with("analysis:\n"
                              "  endpoint: max_phase\n"
                              "  compare: {variant: [before, fixed]}\n"
                              "  secondary: [boot_seconds, {endpoint: {geomean: calibration}, "
                              "within: 2%}]\n"),
                         "exp.yaml");
    const bb::Analysis& analysis = *experiment.analysis;
    REQUIRE(analysis.secondary.size() == 2);
    CHECK(analysis.secondary[0].endpoint.kind == bb::EndpointKind::BootSeconds);
    CHECK_FALSE(analysis.secondary[0].within);
    CHECK(analysis.secondary[1].endpoint == bb::Endpoint{bb::EndpointKind::Geomean, "calibration"});
    CHECK(analysis.secondary[1].within == Approx(0.02));
    CHECK(bb::analysis_from_json(bb::analysis_to_json(analysis)) == analysis);
    // An analysis without secondary endpoints is stored as before they existed.
    const auto plain = parse_experiment(with("analysis:\n"
                                             "  compare: {variant: [before, fixed]}\n"),
                                        "exp.yaml");
    CHECK_FALSE(bb::analysis_to_json(*plain.analysis).contains("secondary"));
    // A stored analysis breaking the parser's rules is refused when read back.
    auto stored = bb::analysis_to_json(analysis);
    stored["ratio"] = false;
    CHECK_THROWS_WITH(bb::analysis_from_json(stored),
                      Catch::Contains("a premise's margin without ratio: true"));

    CHECK_THAT(error_of(with("analysis:\n"
                             "  compare: {variant: [before, fixed]}\n"
                             "  secondary: [boot_seconds, boot_seconds]\n")),
               Catch::Contains("secondary: boot_seconds appears twice"));
    CHECK_THAT(error_of(with("analysis:\n"
                             "  endpoint: max_phase\n"
                             "  compare: {variant: [before, fixed]}\n"
                             "  secondary: [max_phase]\n")),
               Catch::Contains("secondary: max_phase is the primary endpoint"));
    CHECK_THAT(error_of(with("analysis:\n"
                             "  compare: {variant: [before, fixed]}\n"
                             "  secondary: [{endpoint: max_phase, within: 200%}]\n")),
               Catch::Contains("within: expected a margin such as 2%"));
    CHECK_THAT(error_of(with("analysis:\n"
                             "  compare: {variant: [before, fixed]}\n"
                             "  ratio: false\n"
                             "  secondary: [{endpoint: max_phase, within: 2%}]\n")),
               Catch::Contains("a margin of the ratio"));
    CHECK_THAT(error_of(with("analysis:\n"
                             "  trend: {variant: [before, fixed, other]}\n"
                             "  secondary: [max_phase]\n")),
               Catch::Contains("a trend has none"));
    CHECK_THAT(error_of(with("analysis:\n"
                             "  compare: {variant: [before, fixed]}\n"
                             "  secondary: [{endpoint: max_phase, whithin: 2%}]\n")),
               Catch::Contains("did you mean"));
    CHECK_THAT(error_of(with("analysis:\n"
                             "  compare: {variant: [before, fixed]}\n"
                             "  secondary: max_phase\n")),
               Catch::Contains("secondary: expected a list of endpoints"));
}
