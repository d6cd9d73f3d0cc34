#pragma once
#include <chrono>
#include <string>
#include <vector>

namespace bb {

struct CommandResult {
    int exit_code = -1;
    std::string output; // stdout and stderr, interleaved
};

// Runs a short helper command (a `--version` query, `apt-get download`) from an argv — never a
// shell — and captures its output. Throws Error when the program cannot be started or when it
// outlives `timeout` (it is then killed).
CommandResult run_command(const std::vector<std::string>& argv,
                          std::chrono::seconds timeout = std::chrono::seconds(60));

// First line of `program --version`, or "" when the program is absent.
std::string version_of(const std::string& program);

// Full path of `program` on $PATH, or "" when absent.
std::string find_program(const std::string& program);

} // namespace bb
