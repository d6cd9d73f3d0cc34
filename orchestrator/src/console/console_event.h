#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace bb {

// Something noteworthy on the console, stamped with the host's monotonic time (seconds since
// qemu was spawned) and, where the guest said, the guest's own clock.
struct ConsoleEvent {
    enum class Kind {
        FirstByte,     // the first byte qemu wrote (firmware is alive)
        Banner,        // "Linux version ..." (the kernel took over)
        RunInit,       // "Run /init as init process"
        Marker,        // BOOTBENCH-MARKER <name>
        Panic,         // panic / oops / BUG
        Warning,       // WARNING:, soft lockups, RCU stalls: the sample is suspect
        UnknownParams, // "Unknown kernel command line parameters" (a parameter did not take)
        PowerDown,     // "reboot: Power down" / "System halted"
    };
    Kind kind;
    double host_s = 0;
    std::optional<double> guest_s;
    std::string text;
};

std::string_view to_string(ConsoleEvent::Kind kind);

struct MetricSample {
    std::string name;
    double value = 0;
    std::string unit;
    double host_s = 0;
};

struct HistogramBucket {
    std::string name;
    double lo = 0;
    double hi = 0;
    long long count = 0;
};

} // namespace bb
