#include "completion/value_kind.h"

#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace bb {

std::string choice_of(const std::vector<std::string>& values) {
    std::string joined;
    for (const auto& value : values) {
        if (!lists_values(value) || value.find_first_of("|: \t\n") != std::string::npos) {
            throw Error(fmt::format("choice_of: '{}' is not a plain value", value));
        }
        joined += (joined.empty() ? "" : "|") + value;
    }
    return joined;
}

bool lists_values(std::string_view type_name) {
    return !type_name.empty() && std::none_of(type_name.begin(), type_name.end(), [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) != 0;
    });
}

} // namespace bb
