#include "vm/libvirt_launcher.h"

#include "util/error.h"
#include "util/interrupt.h"
#include "util/monotonic_clock.h"
#include "vm/domain_xml.h"
#include "vm/libvirt_stream.h"

#include <array>
#include <chrono>
#include <condition_variable>
#include <fmt/format.h>
#include <memory>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace bb {

namespace {
constexpr auto k_event_tick = std::chrono::milliseconds(20);
// After the domain stopped, console bytes still in flight get this long to arrive.
constexpr double k_drain_s = 1.0;

std::atomic<int> g_domain_number{0};
// The prefix of the run's domain names; empty before a run exists.
std::mutex g_prefix_mutex;
std::string g_run_prefix;

// Shared between the worker and libvirt's event thread (stream readable, domain stopped).
// Held by shared_ptr on both sides: libvirt frees its copy when the callback is removed.
struct LaunchState {
    std::mutex mutex;
    std::condition_variable wake;
    bool pending = false;
    int stopped_detail = -1; // VIR_DOMAIN_EVENT_STOPPED_* once the domain stopped

    void notify() {
        {
            std::lock_guard lock(mutex);
            pending = true;
        }
        wake.notify_one();
    }
    void wait() {
        std::unique_lock lock(mutex);
        wake.wait_for(lock, k_event_tick, [this] { return pending; });
        pending = false;
    }
    int stopped() {
        std::lock_guard lock(mutex);
        return stopped_detail;
    }
};
using SharedState = std::shared_ptr<LaunchState>;

void free_state(void* opaque) {
    delete static_cast<SharedState*>(opaque);
}

void on_stream_event(virStreamPtr /*stream*/, int /*events*/, void* opaque) {
    (*static_cast<SharedState*>(opaque))->notify();
}

int on_lifecycle(virConnectPtr /*conn*/, virDomainPtr /*dom*/, int event, int detail,
                 void* opaque) {
    if (event == VIR_DOMAIN_EVENT_STOPPED) {
        auto& state = *static_cast<SharedState*>(opaque);
        {
            std::lock_guard lock(state->mutex);
            state->stopped_detail = detail;
        }
        state->notify();
    }
    return 0;
}

struct DomainDeleter {
    void operator()(virDomainPtr domain) const {
        virDomainDestroy(domain); // fails harmlessly when it is already gone
        virDomainFree(domain);
    }
};
using Domain = std::unique_ptr<virDomain, DomainDeleter>;

std::string next_domain_name() {
    return fmt::format("{}{}", LibvirtLauncher::domain_prefix(), ++g_domain_number);
}
} // namespace

std::string run_domain_prefix(const std::string& database_id, long long run_id) {
    return fmt::format("bootbench-{}-{}-", database_id.empty() ? "nodb" : database_id, run_id);
}

void LibvirtLauncher::set_run_id(long long run_id, const std::string& database_id) {
    std::lock_guard lock(g_prefix_mutex);
    g_run_prefix = run_id > 0 ? run_domain_prefix(database_id, run_id) : std::string();
}

void LibvirtLauncher::set_run(long long run_id, const std::string& database_id) {
    set_run_id(run_id, database_id);
    m_connection.destroy_domains_with_prefix(domain_prefix());
}

std::string LibvirtLauncher::domain_prefix() {
    std::lock_guard lock(g_prefix_mutex);
    return g_run_prefix.empty() ? fmt::format("bootbench-pid{}-", getpid()) : g_run_prefix;
}

std::vector<std::string> native_argv_words(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\'') {
            const size_t end = text.find('\'', i + 1);
            word += text.substr(i + 1, end == std::string::npos ? end : end - i - 1);
            in_word = true;
            i = end == std::string::npos ? text.size() : end;
        } else if (c == '"') {
            in_word = true;
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\' && i + 1 < text.size()) {
                    ++i;
                }
                word += text[i];
            }
        } else if (c == '\\' && i + 1 < text.size()) {
            ++i;
            if (text[i] != '\n') { // backslash-newline only continues the line
                word += text[i];
                in_word = true;
            }
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) {
                words.push_back(std::move(word));
                word.clear();
                in_word = false;
            }
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word) {
        words.push_back(std::move(word));
    }
    // libvirt prefixes the environment it sets (LC_ALL=C, HOME=…): not part of the argv.
    size_t first = 0;
    while (first < words.size()) {
        const std::string& w = words[first];
        const size_t equals = w.find('=');
        if (equals == std::string::npos || equals == 0 || w.find('/') < equals) {
            break;
        }
        ++first;
    }
    words.erase(words.begin(), words.begin() + static_cast<long>(first));
    return words;
}

namespace {

// How a domain that we did not stop ended, said as a process's end would be.
void classify_stop(LaunchResult& result, int detail, const std::string& console_end,
                   int active_at_end) {
    if (detail == VIR_DOMAIN_EVENT_STOPPED_CRASHED || detail == VIR_DOMAIN_EVENT_STOPPED_FAILED) {
        result.exit_status = 1;
        result.stderr_tail = fmt::format(
            "libvirt reports the domain {}",
            detail == VIR_DOMAIN_EVENT_STOPPED_CRASHED ? "crashed" : "failed (qemu died)");
    } else if (detail == VIR_DOMAIN_EVENT_STOPPED_DESTROYED) {
        result.signal = 9; // destroyed by someone else
        result.stderr_tail = "the domain was destroyed from outside bootbench";
    } else if (detail == VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN) {
        result.exit_status = 0; // the guest powered off
    } else {
        // No stop event: say what was seen instead of guessing a clean exit.
        result.exit_status = 1;
        result.stderr_tail = fmt::format(
            "libvirt: the console ended ({}) and the domain is {} without a stop event{}",
            console_end.empty() ? "still open" : console_end,
            active_at_end == 1   ? "running"
            : active_at_end == 0 ? "inactive"
                                 : "unknown",
            detail >= 0 ? fmt::format(" (stopped, detail {})", detail) : "");
    }
}

// One running domain, from its resume until it is gone: its console stream read into the
// callbacks, the stop decisions (verdict, Ctrl-C) carried out, its CPU time followed, a lost
// connection noticed. An event loop over libvirt's stream and lifecycle events.
class DomainSession {
  public:
    DomainSession(virDomainPtr domain, virStreamPtr stream, LaunchState& state,
                  LibvirtConnection& connection, const ConsoleCallbacks& callbacks,
                  LaunchResult& result, double start)
        : m_domain(domain), m_stream(stream), m_state(state), m_connection(connection),
          m_callbacks(callbacks), m_result(result), m_start(start) {}

    // Until the domain is gone and its console drained (or the drain time passed), or the
    // connection is lost.
    void run() {
        // qemu is libvirtd's child, not ours: its CPU time is read from libvirt so this
        // machine's foreign load does not count our own guest (remote hosts: load unknown).
        m_result.remote = !m_connection.is_local();
        for (;;) {
            m_state.wait();
            drain_console();
            if (!step()) {
                break;
            }
        }
        m_result.wall_s = now();
    }

    const std::string& console_end() const { return m_console_end; }
    int active_at_end() const { return m_active_at_end; }

  private:
    double now() const { return monotonic_seconds() - m_start; }

    void drain_console() {
        while (!m_console_done) {
            const int got = virStreamRecv(m_stream, m_buffer.data(), m_buffer.size());
            const double t = now(); // stamped before any processing
            if (got > 0) {
                m_callbacks.on_output({m_buffer.data(), static_cast<size_t>(got)}, t);
                check(t);
            } else if (got == -2) {
                return; // nothing more for now
            } else {
                m_console_done = true; // end of stream (0) or a broken one (-1)
                m_console_end = got == 0 ? "end of stream" : "stream error: " + libvirt_error();
            }
        }
    }

    // One turn of the loop after the console was read; false when the session is over.
    bool step() {
        const double t = now();
        check(t);
        if (!m_result.stopped_by_us && m_state.stopped() < 0 && t - m_cpu_read_at > 0.5) {
            read_guest_cpu(t);
        }
        if (const std::string lost = m_connection.lost(); !lost.empty()) {
            m_result.host_failure =
                fmt::format("host {} stopped answering: {}", m_connection.uri(), lost);
            return false;
        }
        if (m_console_done && m_state.stopped() < 0 && !m_result.stopped_by_us) {
            m_active_at_end = virDomainIsActive(m_domain);
        }
        const bool gone = m_state.stopped() >= 0 || m_result.stopped_by_us ||
                          (m_console_done && m_active_at_end != 1);
        if (gone) {
            m_stopped_at = m_stopped_at.value_or(t);
            return !(m_console_done || t - *m_stopped_at > k_drain_s);
        }
        return true;
    }

    void check(double t) {
        if (interrupted()) {
            m_result.interrupted = true;
            stop();
        } else if (m_callbacks.should_stop(t)) {
            stop();
        }
    }

    void stop() {
        if (!m_result.stopped_by_us) {
            read_guest_cpu(now());
            m_result.stopped_by_us = true;
            virDomainDestroy(m_domain);
        }
    }

    void read_guest_cpu(double t) {
        virDomainInfo info{};
        if (!m_result.remote && virDomainGetInfo(m_domain, &info) == 0) {
            m_result.guest_cpu_s = static_cast<double>(info.cpuTime) * 1e-9;
        }
        m_cpu_read_at = t;
    }

    virDomainPtr m_domain;
    virStreamPtr m_stream;
    LaunchState& m_state;
    LibvirtConnection& m_connection;
    const ConsoleCallbacks& m_callbacks;
    LaunchResult& m_result;
    double m_start;
    double m_cpu_read_at = 0;
    std::array<char, 1 << 16> m_buffer{};
    bool m_console_done = false;
    std::string m_console_end; // how the console stream ended, for a failure's reason
    int m_active_at_end = 1;
    std::optional<double> m_stopped_at;
};

} // namespace

// The kernel, initrd and firmware on the host (uploaded on first use, before the clock starts)
// and the domain XML that boots them.
std::string LibvirtLauncher::placed_domain_xml(const QemuSpec& spec, const std::string& name) {
    QemuSpec placed = spec;
    placed.kernel = m_volumes.place(spec.kernel);
    if (spec.initrd) {
        placed.initrd = m_volumes.place(*spec.initrd);
    }
    if (spec.firmware) {
        placed.firmware = m_volumes.place(*spec.firmware);
    }
    return domain_xml(placed, name);
}

LaunchResult LibvirtLauncher::run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) {
    LaunchResult result;
    result.libvirt_uri = m_connection.uri();
    virConnectPtr conn = m_connection.get();
    auto fail = [&](std::string message) {
        const std::string lost = m_connection.lost();
        if (!lost.empty()) {
            result.host_failure =
                fmt::format("host {} stopped answering: {}", m_connection.uri(), lost);
        }
        result.spawn_error = std::move(message);
        return result;
    };
    const std::string name = next_domain_name();
    try {
        result.domain_xml = placed_domain_xml(spec, name);
    } catch (const Error& error) {
        return fail(error.what());
    }

    auto state = std::make_shared<LaunchState>();
    const double start = monotonic_seconds();
    Domain domain(virDomainCreateXML(conn, result.domain_xml.c_str(),
                                     VIR_DOMAIN_START_PAUSED | VIR_DOMAIN_START_AUTODESTROY));
    if (!domain) {
        return fail(fmt::format("libvirt host {}: cannot create domain {}: {}", m_connection.uri(),
                                name, libvirt_error()));
    }
    const int lifecycle_id = virConnectDomainEventRegisterAny(
        conn, domain.get(), VIR_DOMAIN_EVENT_ID_LIFECYCLE, VIR_DOMAIN_EVENT_CALLBACK(on_lifecycle),
        new SharedState(state), free_state);
    Stream stream(virStreamNew(conn, VIR_STREAM_NONBLOCK));
    const bool console_open =
        stream &&
        virDomainOpenConsole(domain.get(), nullptr, stream.get(), VIR_DOMAIN_CONSOLE_FORCE) == 0 &&
        virStreamEventAddCallback(stream.get(),
                                  VIR_STREAM_EVENT_READABLE | VIR_STREAM_EVENT_ERROR |
                                      VIR_STREAM_EVENT_HANGUP,
                                  on_stream_event, new SharedState(state), free_state) == 0;
    if (!console_open || virDomainResume(domain.get()) < 0) {
        const std::string message =
            fmt::format("libvirt host {}: domain {}: cannot {}: {}", m_connection.uri(), name,
                        console_open ? "resume it" : "open its serial console", libvirt_error());
        if (lifecycle_id >= 0) {
            virConnectDomainEventDeregisterAny(conn, lifecycle_id);
        }
        return fail(message);
    }
    result.spawned = true;
    DomainSession session(domain.get(), stream.get(), *state, m_connection, callbacks, result,
                          start);
    session.run();
    virStreamEventRemoveCallback(stream.get());
    virStreamAbort(stream.get());
    if (lifecycle_id >= 0) {
        virConnectDomainEventDeregisterAny(conn, lifecycle_id);
    }
    if (!result.stopped_by_us && result.host_failure.empty()) {
        classify_stop(result, state->stopped(), session.console_end(), session.active_at_end());
    }
    domain.reset(); // destroyed (if still running) before the argv query below
    if (result.host_failure.empty()) {
        if (char* native =
                virConnectDomainXMLToNative(conn, "qemu-argv", result.domain_xml.c_str(), 0)) {
            result.argv = native_argv_words(native);
            free(native); // NOLINT: allocated by libvirt
        }
    }
    return result;
}

} // namespace bb
