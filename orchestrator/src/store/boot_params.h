#pragma once
// boots.params_json, read in one place: a boot's parameters (its cell's axis values, e.g.
// {"variant":"stock","hz":250}), a JSON object written by the runner. Three rules for a
// damaged row (not a JSON object), one per kind of reader.
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace bb {

// The object, or nothing for a damaged row (a reader that can leave the boot's axes unknown).
std::optional<nlohmann::json> read_boot_params(std::string_view params_json);

// The object; throws Error naming the boot for a reader that cannot place it without them.
nlohmann::json require_boot_params(std::string_view params_json, long long boot_id);

// For output (JSON reports, exports): the object, or a damaged row's text as a JSON string —
// shown as stored, never a crash and never invalid JSON.
nlohmann::json boot_params_as_stored(std::string_view params_json);

} // namespace bb
