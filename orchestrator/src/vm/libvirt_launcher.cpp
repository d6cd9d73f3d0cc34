#include "vm/libvirt_launcher.h"

#include "util/error.h"
#include "util/interrupt.h"
#include "util/monotonic_clock.h"
#include "vm/domain_xml.h"

#include <array>
#include <chrono>
#include <condition_variable>
#include <fmt/format.h>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace bb {

namespace {
constexpr auto k_tick = std::chrono::milliseconds(20);
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
        wake.wait_for(lock, k_tick, [this] { return pending; });
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

struct StreamDeleter {
    void operator()(virStreamPtr stream) const { virStreamFree(stream); }
};
using Stream = std::unique_ptr<virStream, StreamDeleter>;

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
    QemuSpec placed = spec;
    try {
        // Uploads (first use on a remote host) happen before the clock starts.
        placed.kernel = m_volumes.place(spec.kernel);
        if (spec.initrd) {
            placed.initrd = m_volumes.place(*spec.initrd);
        }
        if (spec.firmware) {
            placed.firmware = m_volumes.place(*spec.firmware);
        }
        result.domain_xml = domain_xml(placed, name);
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
    result.spawned = true;
    const int lifecycle_id = virConnectDomainEventRegisterAny(
        conn, domain.get(), VIR_DOMAIN_EVENT_ID_LIFECYCLE, VIR_DOMAIN_EVENT_CALLBACK(on_lifecycle),
        new SharedState(state), free_state);
    Stream stream(virStreamNew(conn, VIR_STREAM_NONBLOCK));
    bool console_open =
        stream &&
        virDomainOpenConsole(domain.get(), nullptr, stream.get(), VIR_DOMAIN_CONSOLE_FORCE) == 0 &&
        virStreamEventAddCallback(stream.get(),
                                  VIR_STREAM_EVENT_READABLE | VIR_STREAM_EVENT_ERROR |
                                      VIR_STREAM_EVENT_HANGUP,
                                  on_stream_event, new SharedState(state), free_state) == 0;
    if (!console_open || virDomainResume(domain.get()) < 0) {
        result.spawned = false;
        const std::string message =
            fmt::format("libvirt host {}: domain {}: cannot {}: {}", m_connection.uri(), name,
                        console_open ? "resume it" : "open its serial console", libvirt_error());
        if (lifecycle_id >= 0) {
            virConnectDomainEventDeregisterAny(conn, lifecycle_id);
        }
        return fail(message);
    }

    auto now = [start] { return monotonic_seconds() - start; };
    // qemu is libvirtd's child, not ours: its CPU time is read from libvirt so this machine's
    // foreign load does not count our own guest (remote hosts: load unknown here).
    result.remote = !m_connection.is_local();
    double cpu_read_at = 0;
    auto read_guest_cpu = [&](double t) {
        virDomainInfo info{};
        if (!result.remote && virDomainGetInfo(domain.get(), &info) == 0) {
            result.guest_cpu_s = static_cast<double>(info.cpuTime) * 1e-9;
        }
        cpu_read_at = t;
    };
    auto stop = [&] {
        if (!result.stopped_by_us) {
            read_guest_cpu(now());
            result.stopped_by_us = true;
            virDomainDestroy(domain.get());
        }
    };
    auto check = [&](double t) {
        if (interrupted()) {
            result.interrupted = true;
            stop();
        } else if (callbacks.should_stop(t)) {
            stop();
        }
    };
    std::array<char, 1 << 16> buffer{};
    bool console_done = false;
    std::string console_end; // how the console stream ended, for a failure's reason
    int active_at_end = 1;
    std::optional<double> stopped_at;
    for (;;) {
        state->wait();
        while (!console_done) {
            const int got = virStreamRecv(stream.get(), buffer.data(), buffer.size());
            const double t = now(); // stamped before any processing
            if (got > 0) {
                callbacks.on_output({buffer.data(), static_cast<size_t>(got)}, t);
                check(t);
            } else if (got == -2) {
                break; // nothing more for now
            } else {
                console_done = true; // end of stream (0) or a broken one (-1)
                console_end = got == 0 ? "end of stream" : "stream error: " + libvirt_error();
            }
        }
        const double t = now();
        check(t);
        if (!result.stopped_by_us && state->stopped() < 0 && t - cpu_read_at > 0.5) {
            read_guest_cpu(t);
        }
        if (const std::string lost = m_connection.lost(); !lost.empty()) {
            result.host_failure =
                fmt::format("host {} stopped answering: {}", m_connection.uri(), lost);
            break;
        }
        if (console_done && state->stopped() < 0 && !result.stopped_by_us) {
            active_at_end = virDomainIsActive(domain.get());
        }
        const bool gone =
            state->stopped() >= 0 || result.stopped_by_us || (console_done && active_at_end != 1);
        if (gone) {
            stopped_at = stopped_at.value_or(t);
            if (console_done || t - *stopped_at > k_drain_s) {
                break;
            }
        }
    }
    result.wall_s = now();
    virStreamEventRemoveCallback(stream.get());
    virStreamAbort(stream.get());
    if (lifecycle_id >= 0) {
        virConnectDomainEventDeregisterAny(conn, lifecycle_id);
    }
    const int detail = state->stopped();
    if (!result.stopped_by_us && result.host_failure.empty()) {
        if (detail == VIR_DOMAIN_EVENT_STOPPED_CRASHED ||
            detail == VIR_DOMAIN_EVENT_STOPPED_FAILED) {
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
