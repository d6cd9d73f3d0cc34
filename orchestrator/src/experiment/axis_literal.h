#pragma once
// One value of an axis as the experiment file wrote it, keeping its type: `hz: [250]` is the
// integer 250 from the YAML to the stored boot's params (a JSON number), so reports sort 100
// before 1000 without re-parsing text; `machine: [virt]` stays the text "virt".
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

namespace bb {

using AxisLiteral = std::variant<long long, std::string>;

// Canonical text: integers in decimal, text as written (cell keys, include/exclude, --only).
inline std::string literal_text(const AxisLiteral& value) {
    if (const auto* integer = std::get_if<long long>(&value)) {
        return std::to_string(*integer);
    }
    return std::get<std::string>(value);
}

inline nlohmann::json literal_json(const AxisLiteral& value) {
    if (const auto* integer = std::get_if<long long>(&value)) {
        return *integer;
    }
    return std::get<std::string>(value);
}

} // namespace bb
