#include "experiment/experiment.h"

#include <algorithm>
#include <type_traits>

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
    static const std::vector<std::string> k_axes{"variant",  "hz",      "smp", "memory",
                                                 "firmware", "machine", "cpu", "topology"};
    return k_axes;
}

namespace {
template <class T> std::vector<std::string> as_text(const std::vector<T>& values) {
    std::vector<std::string> texts;
    for (const auto& value : values) {
        if constexpr (std::is_same_v<T, int>) {
            texts.push_back(std::to_string(value));
        } else if constexpr (std::is_same_v<T, Topology>) {
            texts.emplace_back(to_string(value));
        } else {
            texts.push_back(value);
        }
    }
    return texts;
}
} // namespace

std::vector<std::string> axis_values(const Experiment& experiment, std::string_view axis) {
    const Axes& axes = experiment.axes;
    if (axis == "variant") {
        std::vector<std::string> names;
        for (const auto& variant : experiment.kernel.variants) {
            names.push_back(variant.name);
        }
        return names;
    }
    if (axis == "hz") {
        return as_text(axes.hz);
    }
    if (axis == "smp") {
        return as_text(axes.smp);
    }
    if (axis == "memory") {
        return as_text(axes.memory_mb);
    }
    if (axis == "firmware") {
        return as_text(axes.firmware);
    }
    if (axis == "machine") {
        return as_text(axes.machine);
    }
    if (axis == "cpu") {
        return as_text(axes.cpu);
    }
    if (axis == "topology") {
        return as_text(axes.topology);
    }
    for (const auto& parameter : axes.cmdline) {
        if (parameter.parameter == axis) {
            return parameter.values;
        }
    }
    return {};
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
