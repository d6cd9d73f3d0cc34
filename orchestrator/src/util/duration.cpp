#include "util/duration.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace bb {

std::optional<double> parse_duration(std::string_view text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr == text.data() || !std::isfinite(value) || value < 0) {
        return std::nullopt;
    }
    const std::string_view unit(ptr, static_cast<size_t>(end - ptr));
    if (unit.empty() || unit == "s") {
        return value;
    }
    if (unit == "m") {
        return value * 60;
    }
    if (unit == "h") {
        return value * 3600;
    }
    return std::nullopt;
}

std::string format_duration(double seconds) {
    if (seconds < 60) {
        return fmt::format("{:.0f} s", seconds);
    }
    if (seconds < 3600) {
        return fmt::format("{:.0f}m{:02.0f}s", std::floor(seconds / 60), std::fmod(seconds, 60));
    }
    return fmt::format("{:.0f}h{:02.0f}m", std::floor(seconds / 3600),
                       std::floor(std::fmod(seconds, 3600) / 60));
}

} // namespace bb
