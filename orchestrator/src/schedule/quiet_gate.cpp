#include "schedule/quiet_gate.h"

#include "schedule/host_load.h"
#include "util/interrupt.h"
#include "util/monotonic_clock.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <thread>

namespace bb {

namespace {
// Short enough that Ctrl-C during a wait feels immediate.
constexpr auto k_interrupt_poll = std::chrono::milliseconds(50);
} // namespace

HostLoadSource::HostLoadSource(double window_s)
    : m_window_s(window_s), m_opened_at(monotonic_seconds()) {}

std::optional<double> HostLoadSource::measure() {
    const double end = m_opened_at + m_window_s;
    for (double now = monotonic_seconds(); now < end; now = monotonic_seconds()) {
        if (interrupted()) {
            return std::nullopt;
        }
        std::this_thread::sleep_for(std::min<std::chrono::duration<double>>(
            k_interrupt_poll, std::chrono::duration<double>(end - now)));
    }
    const double load = m_window.foreign_load();
    m_window = LoadWindow();
    m_opened_at = monotonic_seconds();
    return load;
}

double HostLoadSource::now() const {
    return monotonic_seconds();
}

QuietVerdict wait_for_quiet(const QuietSettings& settings, LoadSource& source,
                            const std::function<void(const std::string&)>& status) {
    QuietVerdict verdict;
    std::optional<double> load = source.measure();
    const double first = source.now();
    verdict.first_load = load.value_or(0);
    while (load && *load > settings.max_load) {
        const double waited = source.now() - first;
        if (waited >= settings.max_wait_s) {
            verdict.timed_out = true;
            break;
        }
        status(fmt::format("waiting for a quiet host (load {:.2f}, {:.0f} s)", *load, waited));
        verdict.load_before = *load;
        load = source.measure();
    }
    verdict.interrupted = !load;
    verdict.load_before = load.value_or(verdict.load_before);
    // Quiet at the first measurement: no wait at all (0, as QuietVerdict says). Two clock reads
    // made every quiet sample "waited" a few µs: a note before every boot and a non-zero
    // quiet_wait_seconds stored (issue 48 item 9b, found while tracing the gated path).
    const bool waited =
        verdict.timed_out || verdict.interrupted || verdict.first_load > settings.max_load;
    verdict.waited_s = waited ? source.now() - first : 0;
    return verdict;
}

bool sample_loaded(const QuietSettings& settings, const std::optional<QuietVerdict>& verdict,
                   std::optional<double> foreign_load) {
    const bool waited_in_vain = verdict && verdict->timed_out;
    return waited_in_vain || foreign_load.value_or(0) > settings.max_load;
}

} // namespace bb
