#pragma once
#include "console/boot_outcome.h"
#include "console/console_event.h"
#include "console/initcall_trace.h"

#include <optional>
#include <string>
#include <vector>

namespace bb {

// One boot as stored: enough to redo it (argv, cmdline, hashes, accel) and everything it
// produced (timings, events, metrics, histograms, the console).
struct BootRecord {
    long long run_id = 0;
    std::string cell_key;
    std::string params_json = "{}";
    int repeat_index = 0;
    std::string arch;
    std::string machine;
    int smp = 0;
    int memory_mb = 0;
    std::string kernel_path;
    std::string kernel_sha256;
    std::optional<std::string> build_key;
    std::optional<std::string> initrd_path;
    std::optional<std::string> initrd_sha256;
    std::optional<std::string> firmware_name;
    std::optional<std::string> firmware_sha256;
    std::string cmdline;
    std::vector<std::string> argv;
    std::string launcher = "qemu";    // qemu | libvirt
    std::string libvirt_uri;          // libvirt: the host's connection URI
    std::string domain_xml;           // libvirt: the domain as created
    std::optional<long long> host_id; // the host the guest ran on (a fleet has several)
    std::string accel;
    std::string accel_reason;
    int concurrency = 1;
    std::optional<double> foreign_load;
    // The host's conditions while it booted (util/host_conditions.h) as a JSON object, with
    // the qemu version and the accelerator; unset where they cannot be read (a fleet host).
    std::optional<std::string> host_conditions_json;
    // The quiet-host gate (pipeline/quiet_sample.h): how long the sample waited for the host to
    // become quiet and the foreign load when it started (both unset: not gated), and whether
    // it counts as loaded (unset: written before schema 8; the views fall back to the load).
    std::optional<double> quiet_wait_seconds;
    std::optional<double> load_before;
    std::optional<bool> loaded;
    BootOutcome outcome = BootOutcome::InfraError;
    std::string outcome_reason;
    // Set when a requested kernel parameter did not take (console/param_check.h): the boot
    // ran, but not with the configuration it stands for, so reports leave it out.
    std::optional<std::string> params_not_applied;
    std::optional<double> boot_seconds;
    std::string timing_marker; // the marker boot_seconds was timed to
    std::string start_marker;  // ... and from ("": from qemu's spawn)
    std::optional<double> guest_marker_seconds;
    std::optional<double> first_byte_seconds;
    std::optional<double> banner_seconds;
    std::optional<double> run_init_seconds;
    double wall_seconds = 0;
    std::optional<int> exit_status;
    std::optional<int> exit_signal;
    long long console_bytes = 0;
    std::string console_tail;
    std::string console_log; // stored gzip'd
    std::string started_at;  // ISO 8601 UTC
    std::vector<ConsoleEvent> events;
    std::vector<MetricSample> metrics;
    std::vector<HistogramBucket> histograms;
    // initcall_debug boots (console/initcall_trace.h): the trace's state ("complete", …; unset:
    // not traced), the kernel's clock when it started /init, and the initcalls that returned.
    std::optional<std::string> initcall_trace;
    std::optional<double> kernel_init_seconds;
    std::vector<InitcallRecord> initcalls;
};

} // namespace bb
