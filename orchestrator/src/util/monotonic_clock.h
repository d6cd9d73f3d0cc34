#pragma once
#include <time.h>

namespace bb {

// CLOCK_MONOTONIC in seconds: immune to NTP steps, the clock every boot time is measured on.
inline double monotonic_seconds() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

} // namespace bb
