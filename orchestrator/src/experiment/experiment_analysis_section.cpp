// The `analysis:` section (endpoint, compare or trend, pairing, α, family, secondary endpoints) and
// `repeats:` (a count or precision stopping).
#include "experiment/experiment_reader.h"

namespace bb::experiment_reading {

Endpoint ExperimentReader::read_endpoint(const Entry& entry, const Experiment& experiment) const {
    if (entry.value.IsMap()) {
        const Entries entries = mapping(entry.value, "endpoint", k_endpoint_keys);
        const Entry& prefix = required(entries, entry.value, "endpoint", "geomean",
                                       "the items' prefix, e.g. {geomean: launch}");
        return {EndpointKind::Geomean, name_value(prefix, "metric prefix")};
    }
    const std::string name = name_value(entry, "endpoint");
    std::vector<std::string> known{"boot_seconds"};
    for (const auto& metric : experiment.guest.metrics) {
        known.push_back(metric.name);
    }
    if (name == "boot_seconds") {
        return {EndpointKind::BootSeconds, ""};
    }
    if (const auto suggestion = did_you_mean(name, known); suggestion && !contains(known, name)) {
        fail(entry.value, fmt::format("endpoint: unknown endpoint {} (did you mean {}?)",
                                      in_quotes(name), in_quotes(*suggestion)));
    }
    return {EndpointKind::Metric, name};
}

std::string ExperimentReader::choice(const Entry& entry,
                                     const std::vector<std::string>& choices) const {
    const std::string text = string_value(entry);
    if (contains(choices, text)) {
        return text;
    }
    const auto suggestion = did_you_mean(text, choices);
    fail(entry.value,
         fmt::format("{}: {} is not allowed ({})", entry.key.Scalar(), in_quotes(text),
                     suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                : "expected " + alternatives(choices)));
}

// [A, B, C]: B and C each against A. [[A, B], [A, C], [B, C]]: exactly those pairs.
std::vector<ComparedPair> ExperimentReader::read_pairs(const YAML::Node& list,
                                                       const std::string& axis,
                                                       const Experiment& experiment) const {
    const bool explicit_pairs = list.IsSequence() && list.size() > 0 && list[0].IsSequence();
    if (!list.IsSequence() || list.size() < (explicit_pairs ? 1 : 2)) {
        fail(list, fmt::format("compare: expected a list of at least two values of {} (each "
                               "against the first) or a list of pairs [A, B], got {}",
                               axis, describe(list)));
    }
    std::vector<ComparedPair> pairs;
    for (size_t i = explicit_pairs ? 0 : 1; i < list.size(); ++i) {
        const YAML::Node pair = explicit_pairs ? list[i] : YAML::Node();
        if (explicit_pairs && (!pair.IsSequence() || pair.size() != 2)) {
            fail(list[i], fmt::format("compare: expected a pair [A, B] of values of {}, got {}",
                                      axis, describe(list[i])));
        }
        const YAML::Node a = explicit_pairs ? pair[0] : list[0];
        const YAML::Node b = explicit_pairs ? pair[1] : list[i];
        ComparedPair compared{axis_value(a, axis, experiment), axis_value(b, axis, experiment)};
        if (compared.a == compared.b) {
            fail(b, fmt::format("compare: {} is compared with itself", in_quotes(compared.b)));
        }
        if (std::find(pairs.begin(), pairs.end(), compared) != pairs.end()) {
            fail(b, fmt::format("compare: {} vs {} appears twice", in_quotes(compared.a),
                                in_quotes(compared.b)));
        }
        pairs.push_back(std::move(compared));
    }
    return pairs;
}

void ExperimentReader::read_compare(const Entry& entry, const Experiment& experiment,
                                    Analysis& analysis) const {
    if (!entry.value.IsMap() || entry.value.size() != 1) {
        fail(entry.value,
             fmt::format("compare: expected one axis and its values, e.g. {{variant: "
                         "[before, fixed]}}, got {}",
                         entry.value.IsMap()
                             ? "a mapping of " + std::to_string(entry.value.size()) + " axes"
                             : describe(entry.value)));
    }
    const auto item = *entry.value.begin();
    analysis.axis = declared_axis(item.first, "compare", experiment);
    analysis.pairs = read_pairs(item.second, analysis.axis, experiment);
}

// {AXIS: [v1, v2, v3, ...]}: at least three values of one axis, in the order a trend would
// follow (the seed's phase counts, increasing).
void ExperimentReader::read_trend(const Entry& entry, const Experiment& experiment,
                                  Analysis& analysis) const {
    if (!entry.value.IsMap() || entry.value.size() != 1) {
        fail(entry.value, fmt::format("trend: expected one axis and its values in order, e.g. "
                                      "{{srcutree.srcu_max_nodelay_phase: [100, 1000, 10000]}}, "
                                      "got {}",
                                      describe(entry.value)));
    }
    const auto item = *entry.value.begin();
    analysis.axis = declared_axis(item.first, "trend", experiment);
    const YAML::Node& list = item.second;
    if (!list.IsSequence() || list.size() < 3) {
        fail(list, fmt::format("trend: expected at least three values of {} in order (two are a "
                               "comparison: compare:), got {}",
                               analysis.axis, describe(list)));
    }
    for (const auto& node : list) {
        std::string value = axis_value(node, analysis.axis, experiment);
        if (std::find(analysis.trend.begin(), analysis.trend.end(), value) !=
            analysis.trend.end()) {
            fail(node, fmt::format("trend: {} appears twice", in_quotes(value)));
        }
        analysis.trend.push_back(std::move(value));
    }
}

Analysis ExperimentReader::read_analysis(const Entry& entry, const Experiment& experiment) const {
    const Entries entries = mapping(entry.value, "analysis", k_analysis_keys);
    Analysis analysis;
    if (const auto found = entries.find("endpoint"); found != entries.end()) {
        analysis.endpoint = read_endpoint(found->second, experiment);
    }
    if (const auto trend = entries.find("trend"); trend != entries.end()) {
        if (entries.count("compare") != 0) {
            fail(trend->second.key, "trend: an analysis declares compare: or trend:, not both");
        }
        read_trend(trend->second, experiment, analysis);
    } else {
        read_compare(required(entries, entry.value, "analysis", "compare",
                              "the compared values of one axis, e.g. {variant: [before, fixed]}, "
                              "or trend: {AXIS: [v1, v2, v3]}"),
                     experiment, analysis);
    }
    if (const auto found = entries.find("paired"); found != entries.end()) {
        analysis.paired = choice(found->second, k_paired_modes) == "round";
        if (analysis.paired && analysis.is_trend()) {
            fail(found->second.value, "paired: the trend test compares independent groups "
                                      "(paired: none)");
        }
    }
    if (const auto found = entries.find("alpha"); found != entries.end()) {
        analysis.alpha = fraction_value(found->second, "a level such as 0.05");
        if (analysis.alpha >= 0.5) {
            fail(found->second.value, fmt::format("alpha: {} is not a significance level "
                                                  "(expected a number below 0.5, e.g. 0.05)",
                                                  found->second.value.Scalar()));
        }
    }
    if (const auto found = entries.find("family"); found != entries.end()) {
        analysis.family =
            choice(found->second, k_families) == "all" ? HolmFamily::All : HolmFamily::Condition;
    }
    if (const auto found = entries.find("ratio"); found != entries.end()) {
        const std::string text = choice(found->second, {"true", "false"});
        analysis.ratio = text == "true";
    }
    if (const auto found = entries.find("direction"); found != entries.end()) {
        analysis.direction =
            choice(found->second, k_directions) == "lower" ? Direction::Lower : Direction::Higher;
    }
    if (const auto found = entries.find("secondary"); found != entries.end()) {
        if (analysis.is_trend()) {
            fail(found->second.key, "secondary: endpoints are compared like the primary one "
                                    "(compare:), a trend has none");
        }
        analysis.secondary = read_secondary(found->second, experiment);
        for (const auto& secondary : analysis.secondary) {
            if (secondary.endpoint == analysis.endpoint) {
                fail(found->second.value, fmt::format("secondary: {} is the primary endpoint",
                                                      secondary.endpoint.label()));
            }
        }
        const bool margin = std::any_of(analysis.secondary.begin(), analysis.secondary.end(),
                                        [](const auto& item) { return item.within.has_value(); });
        if (margin && !analysis.ratio) {
            fail(found->second.key, "secondary: a premise's within: is a margin of the ratio "
                                    "B / A (ratio: true)");
        }
    }
    return analysis;
}

// A list of endpoints (each as `endpoint:` takes it), or of {endpoint, within} for premises.
std::vector<SecondaryEndpoint>
ExperimentReader::read_secondary(const Entry& entry, const Experiment& experiment) const {
    if (!entry.value.IsSequence() || entry.value.size() == 0) {
        fail(entry.value, fmt::format("secondary: expected a list of endpoints, e.g. [launch, "
                                      "{{endpoint: calibration_ms, within: 2%}}], got {}",
                                      describe(entry.value)));
    }
    std::vector<SecondaryEndpoint> list;
    for (const auto& node : entry.value) {
        const Entry item{entry.key, node};
        SecondaryEndpoint secondary;
        if (node.IsMap() && node["endpoint"]) {
            const Entries entries = mapping(node, "secondary", k_secondary_keys);
            secondary.endpoint = read_endpoint(entries.at("endpoint"), experiment);
            if (const auto found = entries.find("within"); found != entries.end()) {
                secondary.within = fraction_value(found->second, "a margin such as 2%");
            }
        } else {
            secondary.endpoint = read_endpoint(item, experiment);
        }
        const bool repeated = std::any_of(list.begin(), list.end(), [&](const auto& known) {
            return known.endpoint == secondary.endpoint;
        });
        if (repeated) {
            fail(node, fmt::format("secondary: {} appears twice", secondary.endpoint.label()));
        }
        list.push_back(secondary);
    }
    return list;
}

// 0 < value < 1, written as a fraction (0.02) or a percentage (2%).
double ExperimentReader::fraction_value(const Entry& entry, const std::string& expected) const {
    const YAML::Node& node = entry.value;
    std::optional<double> value;
    if (node.IsScalar()) {
        const std::string& text = node.Scalar();
        const bool percent = !text.empty() && text.back() == '%';
        value = parse_number(percent ? text.substr(0, text.size() - 1) : text);
        if (value && percent) {
            *value /= 100;
        }
    }
    if (!value || *value <= 0 || *value >= 1) {
        fail(node, fmt::format("{}: expected {} (a fraction between 0 and 1, or a percentage), "
                               "got {}",
                               entry.key.Scalar(), expected, describe(node)));
    }
    return *value;
}

// `repeats: N`, or `repeats: {min, max, until: {endpoint, ci_halfwidth}}`.
void ExperimentReader::read_repeats(const Entry& entry, Experiment& experiment) const {
    if (!entry.value.IsMap()) {
        experiment.repeats = static_cast<int>(integer_of(entry.value, "repeats", 1));
        experiment.max_repeats = experiment.repeats;
        return;
    }
    const Entries entries = mapping(entry.value, "repeats", k_repeats_keys);
    const Entry& max =
        required(entries, entry.value, "repeats", "max", "the most boots per cell, e.g. max: 30");
    const Entry& until = required(entries, entry.value, "repeats", "until",
                                  "the precision to reach, e.g. {ci_halfwidth: 2%}");
    experiment.repeats = k_min_precision_repeats;
    if (const auto found = entries.find("min"); found != entries.end()) {
        experiment.repeats = static_cast<int>(integer_of(found->second.value, "min", 1));
    }
    experiment.max_repeats =
        static_cast<int>(integer_of(max.value, "max", std::max(experiment.repeats, 1)));
    const Entries target = mapping(until.value, "until", k_until_keys);
    PrecisionTarget precision;
    if (experiment.analysis) {
        precision.endpoint = experiment.analysis->endpoint;
    }
    if (const auto found = target.find("endpoint"); found != target.end()) {
        precision.endpoint = read_endpoint(found->second, experiment);
    }
    precision.ci_halfwidth =
        fraction_value(required(target, until.value, "until", "ci_halfwidth",
                                "the relative half-width of the median's interval, e.g. 2%"),
                       "a relative half-width such as 2%");
    experiment.until = precision;
}

// The nested topology boots the built kernel as an arm64 KVM host; its settings mean nothing
// without a nested cell.

} // namespace bb::experiment_reading
