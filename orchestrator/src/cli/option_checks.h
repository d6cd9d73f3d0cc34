#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace bb {

// CLI11's own range checks print the whole range of a double ("not in range 0.000000 to
// 1797693…"); these say what is expected. The message follows the option's name.
inline CLI::Validator positive_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !(value > 0)) {
                return "expected a number > 0, got " + text;
            }
            return {};
        },
        "NUMBER > 0");
}

inline CLI::Validator non_negative_integer() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            long long value = 0;
            if (!CLI::detail::lexical_cast(text, value) || value < 0) {
                return "expected an integer >= 0, got " + text;
            }
            return {};
        },
        "INTEGER >= 0");
}

} // namespace bb
