#include "store/boot_params.h"

#include "util/error.h"

#include <fmt/format.h>

namespace bb {

std::optional<nlohmann::json> read_boot_params(std::string_view params_json) {
    nlohmann::json params = nlohmann::json::parse(params_json, nullptr, false);
    if (!params.is_object()) {
        return std::nullopt;
    }
    return params;
}

nlohmann::json require_boot_params(std::string_view params_json, long long boot_id) {
    auto params = read_boot_params(params_json);
    if (!params) {
        throw Error(fmt::format("boot {}: its stored params_json is not a JSON object ({}); its "
                                "cell cannot be known",
                                boot_id, params_json.substr(0, 80)));
    }
    return std::move(*params);
}

nlohmann::json boot_params_as_stored(std::string_view params_json) {
    auto params = read_boot_params(params_json);
    return params ? std::move(*params) : nlohmann::json(std::string(params_json));
}

} // namespace bb
