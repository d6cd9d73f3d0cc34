#include "experiment/experiment.h"

#include "experiment/axis_table.h"

#include <algorithm>

namespace bb {

std::string_view to_string(Topology topology) {
    return topology == Topology::Guest ? "guest" : "nested";
}

std::optional<Topology> topology_from_string(std::string_view text) {
    if (text == "guest") {
        return Topology::Guest;
    }
    if (text == "nested") {
        return Topology::Nested;
    }
    return std::nullopt;
}

std::string_view to_string(RunOrder order) {
    return order == RunOrder::Shuffled ? "shuffled" : "sequential";
}

const std::vector<std::string>& builtin_axes() {
    static const std::vector<std::string> k_axes = [] {
        std::vector<std::string> names{"variant"};
        for (const auto& axis : builtin_axis_table()) {
            names.emplace_back(axis.name);
        }
        return names;
    }();
    return k_axes;
}

const std::vector<AxisLiteral>* Axes::find(std::string_view name) const {
    const auto found = std::find_if(builtin.begin(), builtin.end(),
                                    [name](const DeclaredAxis& axis) { return axis.name == name; });
    return found == builtin.end() ? nullptr : &found->values;
}

std::vector<std::string> axis_values(const Experiment& experiment, std::string_view axis) {
    std::vector<std::string> texts;
    if (axis == "variant") {
        for (const auto& variant : experiment.kernel.variants) {
            texts.push_back(variant.name);
        }
    } else if (const auto* values = experiment.axes.find(axis)) {
        for (const auto& value : *values) {
            texts.push_back(literal_text(value));
        }
    } else {
        for (const auto& parameter : experiment.axes.cmdline) {
            if (parameter.parameter == axis) {
                texts = parameter.values;
            }
        }
    }
    return texts;
}

std::vector<std::string> declared_axes(const Experiment& experiment) {
    std::vector<std::string> names;
    for (const auto& axis : builtin_axes()) {
        if (!axis_values(experiment, axis).empty()) {
            names.push_back(axis);
        }
    }
    for (const auto& parameter : experiment.axes.cmdline) {
        names.push_back(parameter.parameter);
    }
    return names;
}

const Variant* find_variant(const Experiment& experiment, std::string_view name) {
    const auto& variants = experiment.kernel.variants;
    const auto found =
        std::find_if(variants.begin(), variants.end(),
                     [name](const Variant& variant) { return variant.name == name; });
    return found == variants.end() ? nullptr : &*found;
}

} // namespace bb
