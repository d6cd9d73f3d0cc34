#include "schedule/quiet_settings.h"

namespace bb {

std::string_view to_string(QuietTimeout timeout) {
    return timeout == QuietTimeout::Stop ? "stop" : "run-loaded";
}

std::optional<QuietTimeout> quiet_timeout_from_string(std::string_view text) {
    if (text == "run-loaded") {
        return QuietTimeout::RunLoaded;
    }
    if (text == "stop") {
        return QuietTimeout::Stop;
    }
    return std::nullopt;
}

QuietSettings with_overrides(QuietSettings settings, const QuietOverrides& overrides) {
    settings.max_load = overrides.max_load.value_or(settings.max_load);
    settings.max_wait_s = overrides.max_wait_s.value_or(settings.max_wait_s);
    settings.on_timeout = overrides.on_timeout.value_or(settings.on_timeout);
    settings.wait = settings.wait && !overrides.no_wait;
    return settings;
}

} // namespace bb
