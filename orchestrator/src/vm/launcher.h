#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// What the launcher reports back while a guest runs. Times are seconds since spawn on
// CLOCK_MONOTONIC, taken when each chunk was read.
struct ConsoleCallbacks {
    std::function<void(std::string_view bytes, double host_s)> on_output;
    // Called on every poll tick and after each chunk; true = stop the guest now.
    std::function<bool(double host_s)> should_stop;
};

struct LaunchResult {
    bool spawned = false;
    std::string spawn_error;
    std::optional<int> exit_status; // when qemu exited by itself
    std::optional<int> signal;      // when it died of a signal we did not send
    bool stopped_by_us = false;     // we ended it (verdict reached, end marker, timeout)
    bool interrupted = false;       // the user pressed Ctrl-C
    double wall_s = 0;
    std::string stderr_tail;
    int pid = 0;
};

// Runs one guest to completion. Implementations: local qemu child processes (QemuLauncher);
// later, libvirt domains. Must never leave a guest running when it returns or when the
// orchestrator dies.
class Launcher {
  public:
    virtual ~Launcher() = default;
    virtual LaunchResult run(const std::vector<std::string>& argv,
                             const ConsoleCallbacks& callbacks) = 0;
};

} // namespace bb
