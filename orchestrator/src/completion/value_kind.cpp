#include "completion/value_kind.h"

#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace bb {

std::string choice_of(const std::vector<std::string>& values) {
    std::string joined;
    for (const auto& value : values) {
        const bool capital = std::any_of(value.begin(), value.end(), [](char c) {
            return std::isupper(static_cast<unsigned char>(c)) != 0;
        });
        if (value.empty() || capital || value.find_first_of("|: \t\n") != std::string::npos) {
            throw Error(fmt::format("choice_of: '{}' is not a plain value", value));
        }
        joined += (joined.empty() ? "" : "|") + value;
    }
    return joined;
}

} // namespace bb
