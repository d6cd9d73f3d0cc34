#include "console/console_monitor.h"

#include "console/printk_time.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

namespace bb {

namespace {
constexpr std::string_view k_marker_tag = "BOOTBENCH-MARKER ";
constexpr std::string_view k_metric_tag = "BOOTBENCH-METRIC ";
constexpr std::string_view k_hist_tag = "BOOTBENCH-HIST ";
constexpr std::string_view k_param_tag = "BOOTBENCH-PARAM ";
constexpr std::string_view k_kmsg_tag = "BOOTBENCH-KMSG ";
constexpr size_t k_max_line = 8192;      // longer "lines" are framed anyway: memory stays bounded
constexpr size_t k_max_readbacks = 4096; // a command line holds far fewer parameters

constexpr std::array<std::string_view, 7> k_panic_patterns{"Kernel panic - not syncing",
                                                           "Internal error: Oops",
                                                           "] Oops: ",
                                                           "Unable to handle kernel",
                                                           "BUG: unable to handle",
                                                           "BUG: kernel NULL pointer",
                                                           "] kernel BUG at"};
constexpr std::array<std::string_view, 5> k_warning_patterns{
    "] WARNING: CPU:", "BUG: soft lockup", "self-detected stall", "rcu_preempt detected stalls",
    "rcu_sched detected stalls"};

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

std::string_view next_token(std::string_view& rest) {
    const size_t start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos) {
        rest = {};
        return {};
    }
    rest.remove_prefix(start);
    const size_t end = rest.find_first_of(" \t");
    std::string_view token = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
    return token;
}

} // namespace

std::string_view to_string(ConsoleEvent::Kind kind) {
    switch (kind) {
    case ConsoleEvent::Kind::FirstByte:
        return "first-byte";
    case ConsoleEvent::Kind::Banner:
        return "banner";
    case ConsoleEvent::Kind::RunInit:
        return "run-init";
    case ConsoleEvent::Kind::Marker:
        return "marker";
    case ConsoleEvent::Kind::Panic:
        return "panic";
    case ConsoleEvent::Kind::Warning:
        return "warning";
    case ConsoleEvent::Kind::UnknownParams:
        return "unknown-params";
    case ConsoleEvent::Kind::PowerDown:
        return "power-down";
    }
    return "unknown";
}

ConsoleMonitor::ConsoleMonitor(MonitorLimits limits) : m_limits(std::move(limits)) {}

void ConsoleMonitor::feed(std::string_view bytes, double host_s) {
    if (bytes.empty()) {
        return;
    }
    if (m_total_bytes == 0) {
        record(ConsoleEvent::Kind::FirstByte, host_s, {});
    }
    m_total_bytes += bytes.size();
    m_last_byte_s = host_s;
    append_text(m_filter.filter(bytes), host_s);
    tick(host_s);
}

void ConsoleMonitor::append_text(std::string_view text, double host_s) {
    keep_log(text);
    while (!text.empty()) {
        const size_t newline = text.find('\n');
        const size_t take = newline == std::string_view::npos ? text.size() : newline;
        m_line.append(text.substr(0, take));
        if (newline != std::string_view::npos) {
            handle_line(m_line, host_s);
            m_line.clear();
            text.remove_prefix(newline + 1);
        } else {
            text = {};
        }
        if (m_line.size() >= k_max_line) {
            handle_line(m_line, host_s);
            m_line.clear();
        }
    }
}

void ConsoleMonitor::handle_line(std::string_view line, double host_s) {
    // A line of the ring-buffer dump repeats the kernel's log from earlier in the boot: no
    // event, metric or marker of this moment. Only at the start of a line, where /init puts it.
    if (line.substr(0, k_kmsg_tag.size()) == k_kmsg_tag) {
        m_initcalls.feed(line.substr(k_kmsg_tag.size()));
        return;
    }
    if (auto guest = printk_time(line)) {
        m_last_guest_s = guest;
    }
    if (contains(line, "Linux version ") && !first_event_s(ConsoleEvent::Kind::Banner)) {
        record(ConsoleEvent::Kind::Banner, host_s, line);
    }
    if (contains(line, "Run /init as init process") || contains(line, "Run /sbin/init as init")) {
        record(ConsoleEvent::Kind::RunInit, host_s, line);
    }
    if (contains(line, "Unknown kernel command line parameters")) {
        record(ConsoleEvent::Kind::UnknownParams, host_s, line);
    }
    for (auto pattern : k_warning_patterns) {
        if (contains(line, pattern)) {
            record(ConsoleEvent::Kind::Warning, host_s, line);
            break;
        }
    }
    for (auto pattern : k_panic_patterns) {
        if (contains(line, pattern)) {
            record(ConsoleEvent::Kind::Panic, host_s, line);
            decide(BootOutcome::Panic, std::string(line), host_s + m_limits.panic_grace_s);
            break;
        }
    }
    if (contains(line, "reboot: Power down") || contains(line, "System halted") ||
        contains(line, "reboot: System halted")) {
        record(ConsoleEvent::Kind::PowerDown, host_s, line);
        if (m_limits.stop_on_power_down) {
            power_down(host_s);
        }
    }
    if (const size_t at = line.find(k_metric_tag); at != std::string_view::npos) {
        handle_metric(line.substr(at + k_metric_tag.size()), host_s);
    } else if (const size_t hist = line.find(k_hist_tag); hist != std::string_view::npos) {
        handle_histogram(line.substr(hist + k_hist_tag.size()));
    } else if (const size_t param = line.find(k_param_tag); param != std::string_view::npos) {
        auto readback = parse_param_readback(line.substr(param + k_param_tag.size()));
        if (readback && m_param_readbacks.size() < k_max_readbacks) {
            m_param_readbacks.push_back(std::move(*readback));
        }
    }
    handle_markers(line, host_s);
}

void ConsoleMonitor::power_down(double host_s) {
    // Some minimal kernels halt without powering qemu off: end the guest ourselves.
    if (m_outcome == BootOutcome::Ok) {
        m_stop_at = std::min(m_stop_at.value_or(host_s), host_s); // no need to wait longer
    } else if (m_marker_host_s) {
        decide(BootOutcome::Ok, "guest powered down", host_s);
    } else {
        decide(BootOutcome::Crash,
               fmt::format("guest powered down before marker '{}'", m_limits.timing_marker),
               host_s);
    }
}

void ConsoleMonitor::handle_markers(std::string_view line, double host_s) {
    for (size_t at = line.find(k_marker_tag); at != std::string_view::npos;
         at = line.find(k_marker_tag, at + 1)) {
        std::string_view rest = line.substr(at + k_marker_tag.size());
        const std::string name(next_token(rest));
        if (name.empty()) {
            continue;
        }
        // /init appends its /proc/uptime so the guest's clock sits beside the host's.
        std::optional<double> guest = parse_finite_double(next_token(rest));
        if (!guest) {
            guest = m_last_guest_s;
        }
        m_events.push_back({ConsoleEvent::Kind::Marker, host_s, guest, name});
        if (!m_limits.start_marker.empty() && name == m_limits.start_marker && !m_start_host_s) {
            m_start_host_s = host_s;
        }
        const bool started = m_limits.start_marker.empty() || m_start_host_s;
        if (name == m_limits.timing_marker && !m_marker_host_s && started) {
            m_marker_host_s = host_s;
            m_marker_guest_s = guest;
        }
        if (name == "workload-failed") {
            // /init ran the workload and it failed: whatever follows has no results to keep.
            decide(BootOutcome::Crash,
                   fmt::format("the workload failed (exit status {})",
                               guest ? fmt::format("{:.0f}", *guest) : "unknown"),
                   host_s + m_limits.end_grace_s);
            continue;
        }
        if (name == m_limits.end_marker && !m_end_seen) {
            m_end_seen = true;
            if (m_marker_host_s) {
                decide(BootOutcome::Ok, "end marker seen", host_s + m_limits.end_grace_s);
            } else {
                decide(BootOutcome::Crash,
                       fmt::format("end marker '{}' before timing marker '{}'", m_limits.end_marker,
                                   m_limits.timing_marker),
                       host_s);
            }
        }
    }
}

void ConsoleMonitor::handle_metric(std::string_view rest, double host_s) {
    const std::string name(next_token(rest));
    const auto value = parse_finite_double(next_token(rest));
    const std::string unit(next_token(rest));
    if (!name.empty() && value) {
        m_metrics.push_back({name, *value, unit, host_s});
    }
}

void ConsoleMonitor::handle_histogram(std::string_view rest) {
    const std::string name(next_token(rest));
    const auto lo = parse_finite_double(next_token(rest));
    const auto hi = parse_finite_double(next_token(rest));
    const auto count = parse_finite_double(next_token(rest));
    // A count beyond any integer would overflow the conversion (found by fuzz_console_monitor).
    constexpr double k_max_count = 1e18;
    if (!name.empty() && lo && hi && count && *count >= 0 && *count <= k_max_count) {
        m_histograms.push_back({name, *lo, *hi, static_cast<long long>(*count)});
    }
}

void ConsoleMonitor::record(ConsoleEvent::Kind kind, double host_s, std::string_view text) {
    m_events.push_back({kind, host_s, m_last_guest_s, std::string(text.substr(0, 512))});
}

void ConsoleMonitor::decide(BootOutcome outcome, std::string reason, double stop_at) {
    if (m_outcome) {
        return; // the first verdict stands: a panic after the end marker does not undo "ok"
    }
    m_outcome = outcome;
    m_reason = std::move(reason);
    m_stop_at = stop_at;
}

void ConsoleMonitor::tick(double host_s) {
    if (m_outcome) {
        return;
    }
    const std::string after =
        m_marker_host_s ? fmt::format(" (after marker '{}')", m_limits.timing_marker) : "";
    if (host_s >= m_limits.total_timeout_s) {
        decide(
            BootOutcome::Timeout,
            fmt::format("no end within the {:.0f} s time limit{}", m_limits.total_timeout_s, after),
            host_s);
        return;
    }
    const double quiet_since = m_last_byte_s.value_or(0.0);
    if (host_s - quiet_since >= m_limits.silence_timeout_s) {
        decide(BootOutcome::Silent,
               fmt::format("console silent for {:.0f} s{}{}", host_s - quiet_since,
                           m_total_bytes == 0 ? " (no byte at all)" : "", after),
               host_s);
    }
}

void ConsoleMonitor::process_exited(std::optional<int> exit_status, std::optional<int> signal,
                                    double host_s, std::string_view stderr_tail) {
    if (!m_line.empty()) {
        handle_line(m_line, host_s);
        m_line.clear();
    }
    if (m_outcome) {
        return;
    }
    std::string how = signal ? fmt::format("was killed by signal {}", *signal)
                             : fmt::format("exited with status {}", exit_status.value_or(-1));
    std::string detail;
    if (!stderr_tail.empty()) {
        detail = fmt::format(": {}", stderr_tail);
    }
    if (m_marker_host_s && !signal && exit_status == 0) {
        decide(BootOutcome::Ok, "guest powered off", host_s);
    } else if (m_marker_host_s) {
        decide(BootOutcome::Crash, fmt::format("qemu {} after the marker{}", how, detail), host_s);
    } else {
        decide(BootOutcome::Crash,
               fmt::format("qemu {} before marker '{}'{}", how, m_limits.timing_marker, detail),
               host_s);
    }
}

void ConsoleMonitor::infrastructure_failed(std::string reason, double host_s) {
    decide(BootOutcome::InfraError, std::move(reason), host_s);
}

std::optional<double> ConsoleMonitor::marker_host_s() const {
    if (!m_marker_host_s) {
        return std::nullopt;
    }
    return *m_marker_host_s - m_start_host_s.value_or(0.0);
}

BootOutcome ConsoleMonitor::outcome() const {
    return m_outcome.value_or(BootOutcome::InfraError);
}

std::optional<double> ConsoleMonitor::first_event_s(ConsoleEvent::Kind kind) const {
    for (const auto& event : m_events) {
        if (event.kind == kind) {
            return event.host_s;
        }
    }
    return std::nullopt;
}

void ConsoleMonitor::keep_log(std::string_view text) {
    const size_t half = m_limits.log_limit_bytes / 2;
    if (m_log_head.size() < half) {
        const size_t take = std::min(half - m_log_head.size(), text.size());
        m_log_head.append(text.substr(0, take));
        text.remove_prefix(take);
    }
    m_log_tail.append(text);
    if (m_log_tail.size() > 2 * half) {
        const size_t drop = m_log_tail.size() - half;
        m_log_dropped += drop;
        m_log_tail.erase(0, drop);
    }
}

std::string ConsoleMonitor::log() const {
    std::string out = m_log_head;
    std::string_view tail = m_log_tail;
    size_t dropped = m_log_dropped;
    const size_t half = m_limits.log_limit_bytes / 2;
    if (tail.size() > half) {
        dropped += tail.size() - half;
        tail.remove_prefix(tail.size() - half);
    }
    if (dropped > 0) {
        out += fmt::format("\n[bootbench: {} bytes of console output dropped here]\n", dropped);
    }
    out.append(tail);
    return out;
}

std::string ConsoleMonitor::tail() const {
    std::string recent = m_log_tail.empty() ? m_log_head : m_log_tail;
    // Borrow from the head only when nothing was dropped in between, or the tail would splice
    // the start of the console onto its end.
    if (m_log_tail.size() < m_limits.tail_bytes && !m_log_tail.empty() && m_log_dropped == 0) {
        const size_t need = m_limits.tail_bytes - m_log_tail.size();
        recent =
            m_log_head.substr(m_log_head.size() - std::min(need, m_log_head.size())) + m_log_tail;
    }
    if (recent.size() > m_limits.tail_bytes) {
        recent.erase(0, recent.size() - m_limits.tail_bytes);
    }
    return recent;
}

} // namespace bb
