#pragma once
#include "schedule/quiet_settings.h"

#include <CLI/CLI.hpp>

#include <string>

namespace bb {

// The quiet-host gate's flags, shared by `boot` and `run`: as typed, checked when read.
struct QuietCliOptions {
    std::string max_load;
    std::string max_wait;
    std::string on_timeout;
    bool no_wait = false;
};

void add_quiet_options(CLI::App& command, QuietCliOptions& options);

// Throws Error naming the flag when a value is not what it expects.
QuietOverrides quiet_overrides(const QuietCliOptions& options);

} // namespace bb
