#include "bisect/bisect_step_experiment.h"

#include "experiment/experiment_parser.h"
#include "util/error.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace bb {

namespace {

std::string variant_names(const Experiment& experiment) {
    std::string names;
    for (const auto& variant : experiment.kernel.variants) {
        names += (names.empty() ? "" : ", ") + variant.name +
                 fmt::format(" ({} patches)", variant.patches.size());
    }
    return names;
}

YAML::Node endpoint_node(const Endpoint& endpoint) {
    if (endpoint.kind == EndpointKind::Geomean) {
        YAML::Node node;
        node["geomean"] = endpoint.name;
        return node;
    }
    return YAML::Node(endpoint.label());
}

// The series variant's node as the file wrote it (relative patch paths stay relative to it).
YAML::Node series_node(const YAML::Node& root, const std::string& name) {
    for (const auto& variant : root["kernel"]["variants"]) {
        if (variant["name"].as<std::string>() == name) {
            return variant;
        }
    }
    throw std::logic_error("bisect: the series variant is not in the file's YAML");
}

YAML::Node prefix_node(const YAML::Node& series, int prefix) {
    YAML::Node node = YAML::Clone(series);
    node["name"] = prefix_name(prefix);
    YAML::Node patches(YAML::NodeType::Sequence);
    for (int i = 0; i < prefix; ++i) {
        patches.push_back(YAML::Clone(series["patches"][i]));
    }
    node.remove("patches");
    if (prefix > 0) {
        node["patches"] = patches;
    }
    return node;
}

YAML::Node pair_node(int older, int newer) {
    YAML::Node pair(YAML::NodeType::Sequence);
    pair.push_back(prefix_name(older));
    pair.push_back(prefix_name(newer));
    return pair;
}

YAML::Node analysis_node(const StepDesign& design, const BisectStep& step) {
    YAML::Node analysis;
    analysis["endpoint"] = endpoint_node(design.endpoint);
    YAML::Node pairs(YAML::NodeType::Sequence);
    pairs.push_back(pair_node(step.older, step.newer));
    if (step.middle()) {
        pairs.push_back(pair_node(step.newer, step.upper));
    }
    analysis["compare"]["variant"] = pairs;
    analysis["ratio"] = false; // the bisect judges the shift newer − older
    return analysis;
}

} // namespace

const Variant& series_variant(const Experiment& experiment, const std::string& requested) {
    if (!requested.empty()) {
        const Variant* variant = find_variant(experiment, requested);
        if (variant == nullptr || variant->patches.empty()) {
            throw Error(fmt::format("{}: --variant {}: {}; the variants are: {}",
                                    experiment.file_name, requested,
                                    variant == nullptr ? "no such variant" : "it has no patches",
                                    variant_names(experiment)));
        }
        return *variant;
    }
    const Variant* found = nullptr;
    for (const auto& variant : experiment.kernel.variants) {
        if (variant.patches.empty()) {
            continue;
        }
        if (found != nullptr) {
            throw Error(fmt::format("{}: several variants have patches ({}); name the series "
                                    "with --variant NAME",
                                    experiment.file_name, variant_names(experiment)));
        }
        found = &variant;
    }
    if (found == nullptr) {
        throw Error(fmt::format("{}: no variant has patches: bisect needs a variant whose "
                                "patches: list is the series",
                                experiment.file_name));
    }
    return *found;
}

std::string prefix_name(int prefix) {
    return fmt::format("prefix-{}", prefix);
}

std::string step_label(const BisectStep& step) {
    const std::string label = prefix_name(step.newer) + " vs " + prefix_name(step.older);
    return step.middle() ? label + " and " + prefix_name(step.upper) : label;
}

std::string step_experiment_name(const std::string& name, const BisectStep& step) {
    const std::string pair = fmt::format("{}-bisect-{}v{}", name, step.older, step.newer);
    return step.middle() ? fmt::format("{}v{}", pair, step.upper) : pair;
}

Experiment step_experiment(const Experiment& experiment, const StepDesign& design,
                           const BisectStep& step) {
    YAML::Node root = YAML::Load(experiment.text);
    const YAML::Node series = series_node(root, design.series->name);
    root["name"] = step_experiment_name(experiment.name, step);
    root["description"] = fmt::format("bootbench bisect of {}, variant {}: {}", experiment.name,
                                      design.series->name, step_label(step));
    YAML::Node variants(YAML::NodeType::Sequence);
    variants.push_back(prefix_node(series, step.older));
    variants.push_back(prefix_node(series, step.newer));
    if (step.middle()) {
        variants.push_back(prefix_node(series, step.upper));
    }
    root["kernel"]["variants"] = variants;
    root["repeats"] = 1;
    root["seed"] = design.seed;
    root["analysis"] = analysis_node(design, step);
    const std::string text =
        fmt::format("# Generated by `bootbench bisect {}` for one step: {}.\n{}\n",
                    experiment.file_name, step_label(step), YAML::Dump(root));
    return parse_experiment(text, experiment.file_name);
}

} // namespace bb
