#pragma once
// util/subprocess.h's everyday form for short helpers.
#include "util/subprocess.h"

#include <chrono>
#include <string>
#include <vector>

namespace bb {

struct CommandResult {
    int exit_code = -1;
    std::string output; // stdout and stderr, interleaved
};

// Runs a short helper command (a `--version` query, `apt-get download`) from an argv — never a
// shell — and captures its output (at most 16 MiB; beyond that it is cut, and says so). Throws
// RuntimeFailure when the program cannot be started or outlives `timeout`, and Interrupted on
// Ctrl-C (either way its whole process group is killed first).
CommandResult run_command(const std::vector<std::string>& argv,
                          std::chrono::seconds timeout = std::chrono::seconds(60));

// First line of `program --version`, or "" when the program is absent.
std::string version_of(const std::string& program);

} // namespace bb
