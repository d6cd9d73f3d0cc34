#include "store/patch_labels.h"

#include "util/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bb {

std::string patch_labels_json(const std::vector<std::string>& labels) {
    return nlohmann::json(labels).dump();
}

namespace {
// What is wrong with the stored text, or "" when it is a list of strings.
std::string damage_of(const nlohmann::json& parsed, std::string_view text) {
    if (!parsed.is_array()) {
        return fmt::format("is not a JSON list: {}", text.substr(0, 80));
    }
    for (const auto& label : parsed) {
        if (!label.is_string()) {
            return fmt::format("holds {}, not a name", label.dump());
        }
    }
    return "";
}
} // namespace

std::optional<std::vector<std::string>> read_patch_labels(std::string_view patches_json) {
    const auto parsed = nlohmann::json::parse(patches_json, nullptr, false);
    if (!damage_of(parsed, patches_json).empty()) {
        return std::nullopt;
    }
    return parsed.get<std::vector<std::string>>();
}

std::vector<std::string> require_patch_labels(std::string_view patches_json,
                                              std::string_view build_key) {
    const auto parsed = nlohmann::json::parse(patches_json, nullptr, false);
    if (const std::string damage = damage_of(parsed, patches_json); !damage.empty()) {
        throw Error(fmt::format("build {}: its patch list {}", build_key.substr(0, 12), damage));
    }
    return parsed.get<std::vector<std::string>>();
}

} // namespace bb
