#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace bb {

// What a sample does when the host stayed busy for the whole wait: run anyway, stored as
// loaded (reports leave it out), or stop the run so that it resumes on a quieter host.
enum class QuietTimeout { RunLoaded, Stop };
std::string_view to_string(QuietTimeout timeout);
std::optional<QuietTimeout> quiet_timeout_from_string(std::string_view text);

// The quiet-host gate (docs/experiments.md#quiet): before every sample the foreign CPU load is
// measured and, above `max_load`, waited out for up to `max_wait_s`. A sample whose foreign
// load during the boot exceeds `max_load` is stored as loaded too.
struct QuietSettings {
    double max_load = 0.10;  // fraction of all host CPUs busy with work that is not ours
    double max_wait_s = 600; // per sample
    QuietTimeout on_timeout = QuietTimeout::RunLoaded;
    bool wait = true; // false (--no-quiet-wait): no measurement before the sample
};

// Command-line values that replace the experiment file's (or the defaults, for `boot`).
struct QuietOverrides {
    std::optional<double> max_load;
    std::optional<double> max_wait_s;
    std::optional<QuietTimeout> on_timeout;
    bool no_wait = false;
};

QuietSettings with_overrides(QuietSettings settings, const QuietOverrides& overrides);

} // namespace bb
