#pragma once
#include "vm/qemu_spec.h"

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
    // What ran, to redo it: qemu's argv (under libvirt, as libvirt renders the domain), and the
    // libvirt domain XML and connection URI when a libvirt launcher ran it.
    std::vector<std::string> argv;
    std::string domain_xml;
    std::string libvirt_uri;
    // A libvirt guest is not our child: its CPU time (local host), or that it ran on another
    // machine, whose load this one cannot see.
    double guest_cpu_s = 0;
    bool remote = false;
    // Set when the host stopped answering (connection lost): the guest's fate is unknown and
    // the sample belongs on another host.
    std::string host_failure;
};

// Runs one guest to completion. Implementations: local qemu child processes (QemuLauncher),
// libvirt domains (LibvirtLauncher). Each renders the typed spec its own way (argv, domain
// XML). Must never leave a guest running when it returns or when the orchestrator dies.
class Launcher {
  public:
    virtual ~Launcher() = default;
    virtual LaunchResult run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) = 0;
    // The run the next guests belong to, and the database it is stored in
    // (store/database_id.h): libvirt names its domains after both and clears leftovers of an
    // earlier attempt of the same run in the same database.
    virtual void set_run(long long /*run_id*/, const std::string& /*database_id*/) {}
};

} // namespace bb
