#include "cli/quiet_options.h"

#include "completion/value_kind.h"
#include "util/duration.h"
#include "util/error.h"

#include <charconv>
#include <cmath>

namespace bb {

namespace {
std::optional<double> parse_fraction(const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty() || !std::isfinite(value) || value < 0 ||
        value > 1) {
        return std::nullopt;
    }
    return value;
}
} // namespace

void add_quiet_options(CLI::App& command, QuietCliOptions& options) {
    command
        .add_option("--quiet-max-load", options.max_load,
                    "wait before each sample while the foreign CPU load (fraction of all host "
                    "CPUs, not counting bootbench's guests) is above this; default: the "
                    "experiment's quiet.max_load, else 0.10")
        ->envname("BOOTBENCH_QUIET_MAX_LOAD");
    command
        .add_option("--quiet-max-wait", options.max_wait,
                    "longest wait for a quiet host per sample (90, 90s, 10m, 1h; 0: do not "
                    "wait); default: quiet.max_wait, else 10m")
        ->envname("BOOTBENCH_QUIET_MAX_WAIT");
    command
        .add_option("--quiet-on-timeout", options.on_timeout,
                    "after the longest wait: run-loaded (boot, stored as loaded, left out of "
                    "reports) or stop (end the run; --resume goes on); default: run-loaded")
        ->type_name(choice_of({"run-loaded", "stop"}))
        ->envname("BOOTBENCH_QUIET_ON_TIMEOUT");
    command
        .add_flag("--no-quiet-wait", options.no_wait,
                  "do not measure or wait before samples (a sample whose foreign load during "
                  "the boot is above the limit is still stored as loaded)")
        ->envname("BOOTBENCH_NO_QUIET_WAIT");
}

QuietOverrides quiet_overrides(const QuietCliOptions& options) {
    QuietOverrides overrides;
    overrides.no_wait = options.no_wait;
    if (!options.max_load.empty()) {
        overrides.max_load = parse_fraction(options.max_load);
        if (!overrides.max_load) {
            throw Error("--quiet-max-load: expected a fraction from 0 to 1 (e.g. 0.10), got " +
                        options.max_load);
        }
    }
    if (!options.max_wait.empty()) {
        overrides.max_wait_s = parse_duration(options.max_wait);
        if (!overrides.max_wait_s) {
            throw Error("--quiet-max-wait: expected a duration such as 90, 90s, 10m or 1h, got " +
                        options.max_wait);
        }
    }
    if (!options.on_timeout.empty()) {
        overrides.on_timeout = quiet_timeout_from_string(options.on_timeout);
        if (!overrides.on_timeout) {
            throw Error("--quiet-on-timeout: expected run-loaded or stop, got " +
                        options.on_timeout);
        }
    }
    return overrides;
}

} // namespace bb
