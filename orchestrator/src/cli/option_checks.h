#pragma once
#include <CLI/CLI.hpp>
#include <cmath>
#include <fmt/format.h>
#include <string>

namespace bb {

// CLI11's own range checks print the whole range of a double ("not in range 0.000000 to
// 1797693…"); these say what is expected. The message follows the option's name.
inline CLI::Validator positive_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || !(value > 0)) {
                return "expected a finite number > 0, got " + text;
            }
            return {};
        },
        "NUMBER > 0");
}

// A finite number in [min, max]. CLI::Range lets nan through (every comparison with nan is
// false): `compare --alpha nan` turned a slowdown into "no change" and exit 0 (issue 32, item 4).
inline CLI::Validator number_in(double min, double max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < min ||
                value > max) {
                return fmt::format("expected a number from {} to {}, got {}", min, max, text);
            }
            return {};
        },
        fmt::format("NUMBER in [{}, {}]", min, max));
}

// An integer option of at least `minimum` (0: counts, 1: a number of slots or runs).
inline CLI::Validator integer_at_least(long long minimum) {
    return CLI::Validator(
        [minimum](std::string& text) -> std::string {
            long long value = 0;
            if (!CLI::detail::lexical_cast(text, value) || value < minimum) {
                return "expected an integer >= " + std::to_string(minimum) + ", got " + text;
            }
            return {};
        },
        "INTEGER >= " + std::to_string(minimum));
}

// An integer option in [min, max] (e.g. --warmup 0 to 20).
inline CLI::Validator integer_in(long long min, long long max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            long long value = 0;
            if (!CLI::detail::lexical_cast(text, value) || value < min || value > max) {
                return fmt::format("expected an integer from {} to {}, got {}", min, max, text);
            }
            return {};
        },
        fmt::format("INTEGER in [{}, {}]", min, max));
}

inline CLI::Validator non_negative_integer() {
    return integer_at_least(0);
}

} // namespace bb
