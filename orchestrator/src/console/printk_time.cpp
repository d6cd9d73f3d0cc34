#include "console/printk_time.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace bb {

std::optional<double> parse_finite_double(std::string_view text) {
    if (text.empty()) {
        return std::nullopt;
    }
    std::string copy(text); // std::from_chars for double is missing from GCC 12's libstdc++ sync
    char* end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    // "nan", "inf" and overflows are not measurements (and NaN cannot be stored).
    if (end != copy.c_str() + copy.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

namespace {
// Where the prefix's ']' is, when the line starts with one (printk pads to 12 characters).
std::optional<size_t> prefix_close(std::string_view line) {
    if (line.size() < 3 || line.front() != '[') {
        return std::nullopt;
    }
    const size_t close = line.find(']');
    if (close == std::string_view::npos || close > 20) {
        return std::nullopt;
    }
    return close;
}
} // namespace

std::optional<double> printk_time(std::string_view line) {
    const auto close = prefix_close(line);
    if (!close) {
        return std::nullopt;
    }
    std::string_view inside = line.substr(1, *close - 1);
    inside.remove_prefix(std::min(inside.find_first_not_of(' '), inside.size()));
    return parse_finite_double(inside);
}

std::string_view after_printk_time(std::string_view line) {
    const auto close = prefix_close(line);
    if (!close || !printk_time(line)) {
        return line;
    }
    line.remove_prefix(*close + 1);
    if (!line.empty() && line.front() == ' ') {
        line.remove_prefix(1);
    }
    return line;
}

} // namespace bb
