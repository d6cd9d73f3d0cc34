#pragma once
#include <string>

namespace bb {

// Picks one unit for a set of values so that a mean and its σ print side by side in the same
// unit, as hyperfine does ("6.123 s ± 0.101 s", "412.3 ms ± 9.8 ms").
enum class TimeUnit { Microseconds, Milliseconds, Seconds };

TimeUnit unit_for_seconds(double seconds);
std::string format_seconds(double seconds, TimeUnit unit);
std::string format_seconds(double seconds);
std::string format_bytes(double bytes);

} // namespace bb
