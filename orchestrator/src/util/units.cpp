#include "util/units.h"

#include <fmt/format.h>

#include <cmath>

namespace bb {

TimeUnit unit_for_seconds(double seconds) {
    const double magnitude = std::fabs(seconds);
    if (magnitude >= 1.0 || magnitude == 0.0) {
        return TimeUnit::Seconds;
    }
    if (magnitude >= 1e-3) {
        return TimeUnit::Milliseconds;
    }
    return TimeUnit::Microseconds;
}

std::string format_seconds(double seconds, TimeUnit unit) {
    switch (unit) {
    case TimeUnit::Seconds:
        return fmt::format("{:.3f} s", seconds);
    case TimeUnit::Milliseconds:
        return fmt::format("{:.1f} ms", seconds * 1e3);
    case TimeUnit::Microseconds:
        return fmt::format("{:.1f} µs", seconds * 1e6);
    }
    return {};
}

std::string format_seconds(double seconds) {
    return format_seconds(seconds, unit_for_seconds(seconds));
}

std::string format_bytes(double bytes) {
    static constexpr const char* k_units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int index = 0;
    while (bytes >= 1024.0 && index < 4) {
        bytes /= 1024.0;
        ++index;
    }
    return index == 0 ? fmt::format("{:.0f} {}", bytes, k_units[index])
                      : fmt::format("{:.1f} {}", bytes, k_units[index]);
}

} // namespace bb
