#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace bb {

// "90", "90s", "1.5m", "10m", "1h" -> seconds; nullopt for anything else (negative, no number,
// another unit). The form of every wait an experiment file or a flag gives.
std::optional<double> parse_duration(std::string_view text);

// 37 -> "37 s", 754 -> "12m34s", 4000 -> "1h07m": a wait as a person reads it.
std::string format_duration(double seconds);

} // namespace bb
