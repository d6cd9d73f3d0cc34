#include "pipeline/quiet_sample.h"

#include "util/duration.h"

#include <fmt/format.h>

namespace bb {

std::optional<QuietVerdict> gate_sample(const QuietSettings& settings, bool guest_is_our_child,
                                        HostLoadSource& source,
                                        const std::function<void(const std::string&)>& status) {
    if (!settings.wait || !guest_is_our_child) {
        return std::nullopt;
    }
    return wait_for_quiet(settings, source, status);
}

void record_quiet(BootRecord& boot, const QuietSettings& settings,
                  const std::optional<QuietVerdict>& verdict) {
    if (verdict) {
        boot.quiet_wait_seconds = verdict->waited_s;
        boot.load_before = verdict->load_before;
    }
    boot.loaded = sample_loaded(settings, verdict, boot.foreign_load);
}

std::string wait_note(const QuietSettings& settings, const QuietVerdict& verdict,
                      const std::string& sample) {
    if (verdict.waited_s <= 0 && !verdict.timed_out) {
        return "";
    }
    if (verdict.timed_out) {
        return fmt::format("{}: the host stayed busy for {} (foreign load {:.2f}, then {:.2f}; "
                           "quiet means <= {:.2f}); {}",
                           sample, format_duration(verdict.waited_s), verdict.first_load,
                           verdict.load_before, settings.max_load,
                           settings.on_timeout == QuietTimeout::Stop
                               ? "stopping the run"
                               : "booting it anyway, stored as loaded");
    }
    return fmt::format("{}: waited {} for a quiet host (foreign load {:.2f}, then {:.2f})", sample,
                       format_duration(verdict.waited_s), verdict.first_load, verdict.load_before);
}

std::string quiet_stop_reason(const QuietSettings& settings, const QuietVerdict& verdict,
                              const std::string& sample) {
    return fmt::format("the host was not quiet: foreign CPU load {:.2f} > {:.2f} for {} before "
                       "{} (quiet.on_timeout: stop)",
                       verdict.load_before, settings.max_load, format_duration(verdict.waited_s),
                       sample);
}

} // namespace bb
