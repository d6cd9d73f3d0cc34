// The `axes:` section and the include/exclude rules that name its values.
#include "experiment/experiment_reader.h"

namespace bb::experiment_reading {

std::vector<AxisLiteral> ExperimentReader::integer_axis(const Entry& entry,
                                                        const BuiltinAxis& axis) const {
    const std::string& key = entry.key.Scalar();
    if (!entry.value.IsSequence() || entry.value.size() == 0) {
        fail(entry.value, fmt::format("{}: expected a non-empty list of integers, got {}", key,
                                      describe(entry.value)));
    }
    const std::vector<std::string> allowed = vocabulary_texts(axis);
    std::vector<AxisLiteral> values;
    std::vector<std::string> texts;
    for (const auto& item : entry.value) {
        const long long value = integer_of(item, key, axis.minimum, axis.maximum);
        texts.push_back(std::to_string(value));
        if (!allowed.empty() && !contains(allowed, texts.back())) {
            fail(item, fmt::format("{}: {} is not {} (expected {})", key, texts.back(), axis.noun,
                                   alternatives(allowed)));
        }
        values.emplace_back(value);
    }
    check_distinct(entry.value, key, texts);
    return values;
}

std::vector<AxisLiteral> ExperimentReader::text_axis(const Entry& entry,
                                                     const BuiltinAxis& axis) const {
    const std::vector<std::string> texts = string_axis(entry);
    const std::vector<std::string> allowed = vocabulary_texts(axis);
    std::vector<AxisLiteral> values;
    for (size_t i = 0; i < texts.size(); ++i) {
        if (!allowed.empty() && !contains(allowed, texts[i])) {
            fail(entry.value[i],
                 fmt::format("{}: {} is not {} (expected {})", entry.key.Scalar(),
                             in_quotes(texts[i]), axis.noun, alternatives(allowed)));
        }
        values.emplace_back(texts[i]);
    }
    return values;
}

void ExperimentReader::read_axes(const Entry& entry, Axes& axes) const {
    const Entries entries = mapping(entry.value, "axes", axes_keys());
    for (const BuiltinAxis& axis : builtin_axis_table()) {
        if (const auto found = entries.find(std::string(axis.name)); found != entries.end()) {
            axes.builtin.push_back(
                DeclaredAxis{std::string(axis.name), axis.kind == AxisKind::Integer
                                                         ? integer_axis(found->second, axis)
                                                         : text_axis(found->second, axis)});
        }
    }
    if (const auto found = entries.find("cmdline"); found != entries.end()) {
        const YAML::Node& map = found->second.value;
        if (!map.IsMap() || map.size() == 0) {
            fail(map, fmt::format("cmdline: expected a mapping of kernel parameters to lists of "
                                  "values, got {}",
                                  describe(map)));
        }
        std::set<std::string> seen;
        for (const auto& item : map) {
            const std::string parameter = string_of(item.first, "cmdline");
            if (!is_name(parameter)) {
                fail(item.first, fmt::format("cmdline: {} is not a kernel parameter name "
                                             "(expected letters, digits, '.', '_' or '-')",
                                             in_quotes(parameter)));
            }
            // Parameters share the namespace of include/exclude keys with the built-in axes.
            if (contains(builtin_axes(), parameter)) {
                fail(item.first, fmt::format("cmdline: parameter {} has the name of a built-in "
                                             "axis (expected a kernel parameter such as "
                                             "rcutree.name)",
                                             in_quotes(parameter)));
            }
            if (!seen.insert(parameter).second) {
                fail(item.first, fmt::format("duplicate key {}", in_quotes(parameter)));
            }
            const std::vector<std::string> values = string_axis(Entry{item.first, item.second});
            for (size_t i = 0; i < values.size(); ++i) {
                if (has_space(values[i])) {
                    fail(item.second[i], fmt::format("{}: expected a value without spaces, got {}",
                                                     parameter, in_quotes(values[i])));
                }
            }
            axes.cmdline.push_back(CmdlineAxis{parameter, values});
        }
    }
}

std::string ExperimentReader::declared_axis(const YAML::Node& node, const std::string& key,
                                            const Experiment& experiment) const {
    const std::string axis = string_of(node, key);
    const std::vector<std::string> declared = declared_axes(experiment);
    if (contains(declared, axis)) {
        return axis;
    }
    if (contains(builtin_axes(), axis)) {
        fail(node, fmt::format("{}: {} is not an axis of this experiment (expected one of: {})",
                               key, in_quotes(axis), comma_list(declared)));
    }
    const auto suggestion = did_you_mean(axis, declared);
    fail(node, suggestion ? fmt::format("{}: unknown axis {} (did you mean {}?)", key,
                                        in_quotes(axis), in_quotes(*suggestion))
                          : fmt::format("{}: unknown axis {} (expected one of: {})", key,
                                        in_quotes(axis), comma_list(declared)));
}

std::string ExperimentReader::axis_value(const YAML::Node& node, const std::string& axis,
                                         const Experiment& experiment) const {
    if (!node.IsScalar()) {
        fail(node, fmt::format("{}: expected one value of the {} axis, got {}", axis, axis,
                               describe(node)));
    }
    const BuiltinAxis* builtin = find_builtin_axis(axis);
    const bool integer = builtin != nullptr && builtin->kind == AxisKind::Integer;
    const std::string value = integer ? std::to_string(integer_of(node, axis, 1)) : node.Scalar();
    const std::vector<std::string> values = axis_values(experiment, axis);
    if (!contains(values, value)) {
        const auto suggestion = integer ? std::nullopt : did_you_mean(value, values);
        fail(node, fmt::format("{}: {} is not a value of the {} axis ({})", axis,
                               integer ? value : in_quotes(value), axis,
                               suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                          : "expected " + alternatives(values)));
    }
    return value;
}

std::vector<CellRule> ExperimentReader::read_rules(const Entry& entry,
                                                   const Experiment& experiment) const {
    const std::string& key = entry.key.Scalar();
    if (!entry.value.IsSequence()) {
        fail(entry.value, fmt::format("{}: expected a list of mappings such as {{variant: stock, "
                                      "hz: 250}}, got {}",
                                      key, describe(entry.value)));
    }
    std::vector<CellRule> rules;
    for (const auto& item : entry.value) {
        if (!item.IsMap() || item.size() == 0) {
            fail(item, fmt::format("{}: expected a mapping of axes to values such as {{variant: "
                                   "stock, hz: 250}}, got {}",
                                   key, item.IsMap() ? "an empty mapping" : describe(item)));
        }
        CellRule rule;
        for (const auto& pair : item) {
            const std::string axis = declared_axis(pair.first, key, experiment);
            if (rule.count(axis) != 0) {
                fail(pair.first, fmt::format("duplicate key {}", in_quotes(axis)));
            }
            rule.emplace(axis, axis_value(pair.second, axis, experiment));
        }
        rules.push_back(std::move(rule));
    }
    return rules;
}

} // namespace bb::experiment_reading
