#include "kcidb/json_finite.h"

#include "util/error.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {
void check(const nlohmann::json& value, const nlohmann::json::json_pointer& where) {
    if (value.is_number_float() && !std::isfinite(value.get<double>())) {
        throw Error(fmt::format("{} is {}, not a finite number: JSON cannot hold it",
                                where.to_string(), value.get<double>()));
    }
    if (value.is_object()) {
        for (const auto& [key, item] : value.items()) {
            check(item, where / key);
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            check(value[i], where / i);
        }
    }
}
} // namespace

void require_finite_numbers(const nlohmann::json& value) {
    check(value, nlohmann::json::json_pointer());
}

} // namespace bb
