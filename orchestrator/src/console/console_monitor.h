#pragma once
#include "console/ansi_filter.h"
#include "console/boot_outcome.h"
#include "console/console_event.h"
#include "console/initcall_trace.h"
#include "console/param_check.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

struct MonitorLimits {
    std::string timing_marker = "boot-done"; // the boot time is the host time of this marker
    std::string end_marker = "end";          // the guest's work is over after this one
    // When set, the boot time spans from this marker to the timing marker (a nested L2's boot
    // from the moment L1 starts it) and a timing marker before it does not count.
    std::string start_marker;
    // A guest's "reboot: Power down" ends the boot; not when the console also carries a
    // nested guest's, whose power-off is only the middle of the run.
    bool stop_on_power_down = true;
    double total_timeout_s = 300;
    double silence_timeout_s = 60;
    double end_grace_s = 3;   // time for the guest to power off by itself after the end
    double panic_grace_s = 1; // keep reading after a panic so the trace is captured
    size_t tail_bytes = 16 * 1024;
    size_t log_limit_bytes = 32 * 1024 * 1024;
};

// Turns a serial console byte stream into events, metrics and a verdict. Pure: it knows neither
// qemu nor the store; the launcher feeds it bytes with the monotonic time they were read and asks
// it when the guest should be stopped. Memory stays bounded however long the console runs.
class ConsoleMonitor {
  public:
    explicit ConsoleMonitor(MonitorLimits limits = {});

    void feed(std::string_view bytes, double host_s);
    // Periodic check of the total and silence limits.
    void tick(double host_s);
    // qemu is gone: its exit status (or signal) decides the outcome if nothing else has.
    void process_exited(std::optional<int> exit_status, std::optional<int> signal, double host_s,
                        std::string_view stderr_tail);
    // The launcher could not run or had to abandon the guest (spawn failure, Ctrl-C).
    void infrastructure_failed(std::string reason, double host_s);

    // When set, the launcher must stop the guest once this host time is reached.
    std::optional<double> stop_at() const { return m_stop_at; }
    bool decided() const { return m_outcome.has_value(); }
    BootOutcome outcome() const;
    const std::string& reason() const { return m_reason; }

    // Host time of the timing marker, counted from the start marker when there is one.
    std::optional<double> marker_host_s() const;
    std::optional<double> start_marker_host_s() const { return m_start_host_s; }
    std::optional<double> marker_guest_s() const { return m_marker_guest_s; }
    const std::vector<ConsoleEvent>& events() const { return m_events; }
    const std::vector<MetricSample>& metrics() const { return m_metrics; }
    const std::vector<HistogramBucket>& histograms() const { return m_histograms; }
    const std::vector<ParamReadback>& param_readbacks() const { return m_param_readbacks; }
    // The ring buffer's initcall lines /init dumped after the marker (initcall_debug boots).
    const InitcallTrace& initcalls() const { return m_initcalls; }
    std::optional<double> first_event_s(ConsoleEvent::Kind kind) const;

    // The filtered console text; when longer than the limit, its middle is dropped.
    std::string log() const;
    std::string tail() const;
    size_t total_bytes() const { return m_total_bytes; }

  private:
    void append_text(std::string_view text, double host_s);
    void handle_line(std::string_view line, double host_s);
    void handle_markers(std::string_view line, double host_s);
    void power_down(double host_s);
    void handle_metric(std::string_view rest, double host_s);
    void handle_histogram(std::string_view rest);
    void record(ConsoleEvent::Kind kind, double host_s, std::string_view text);
    void decide(BootOutcome outcome, std::string reason, double stop_at);
    void keep_log(std::string_view text);

    MonitorLimits m_limits;
    AnsiFilter m_filter;
    std::string m_line;
    std::optional<double> m_last_guest_s;
    std::optional<double> m_last_byte_s;
    size_t m_total_bytes = 0;

    std::string m_log_head;
    std::string m_log_tail; // ring kept as a string trimmed from the front
    size_t m_log_dropped = 0;

    std::vector<ConsoleEvent> m_events;
    std::vector<MetricSample> m_metrics;
    std::vector<HistogramBucket> m_histograms;
    std::vector<ParamReadback> m_param_readbacks;
    InitcallTrace m_initcalls;
    std::optional<double> m_start_host_s;
    std::optional<double> m_marker_host_s;
    std::optional<double> m_marker_guest_s;
    bool m_end_seen = false;

    std::optional<BootOutcome> m_outcome;
    std::string m_reason;
    std::optional<double> m_stop_at;
};

} // namespace bb
