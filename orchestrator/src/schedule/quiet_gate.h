#pragma once
#include "schedule/host_load.h"
#include "schedule/quiet_settings.h"

#include <functional>
#include <optional>
#include <string>

namespace bb {

// Where the gate reads the foreign load and the time: the host (HostLoadSource) or, in unit
// tests, a script with a clock of its own.
class LoadSource {
  public:
    virtual ~LoadSource() = default;
    // The foreign load over the next short window (blocks for that window); nullopt when the
    // user interrupted the wait.
    virtual std::optional<double> measure() = 0;
    virtual double now() const = 0;
};

// Foreign load as schedule/host_load.h defines it (our guests, running or reaped, are not
// foreign), polling util/interrupt while it waits. The window is continuous: each measurement
// covers the time since the previous one ended (or since construction), waiting only until it
// spans at least `window_s`. One source kept per lane of a run, the window before a sample
// covers the previous boot and its storing, so a run on a quiet host starts each boot without
// the idle second a fresh window would spend (issue 48 item 9b), and a foreign load that began
// during the previous boot is still seen.
class HostLoadSource : public LoadSource {
  public:
    explicit HostLoadSource(double window_s = 1.0);
    std::optional<double> measure() override;
    double now() const override;

  private:
    double m_window_s;
    LoadWindow m_window; // open since the previous measurement
    double m_opened_at;
};

// What the gate found before a sample.
struct QuietVerdict {
    double first_load = 0;  // the first measurement
    double load_before = 0; // the last one: the load when the sample starts
    double waited_s = 0;    // from the first measurement to the decision (0: quiet at once)
    bool timed_out = false; // still above max_load after max_wait
    bool interrupted = false;
    // The sample is not booted now: Ctrl-C, or a timeout with on_timeout: stop.
    bool stops(const QuietSettings& settings) const {
        return interrupted || (timed_out && settings.on_timeout == QuietTimeout::Stop);
    }
};

// Measures and, while the load is above `settings.max_load`, keeps measuring (each measurement
// is the poll) until it drops, `max_wait_s` passes or the user interrupts. `status` gets
// "waiting for a quiet host (load 0.45, 37 s)" after every busy measurement.
QuietVerdict wait_for_quiet(const QuietSettings& settings, LoadSource& source,
                            const std::function<void(const std::string&)>& status);

// A sample is loaded when it ran after a wait that timed out, or when the foreign load during
// its boot exceeded the threshold in force (unknown load: a remote host, not loaded).
bool sample_loaded(const QuietSettings& settings, const std::optional<QuietVerdict>& verdict,
                   std::optional<double> foreign_load);

} // namespace bb
