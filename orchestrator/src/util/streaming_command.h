#pragma once
// util/subprocess.h's everyday form for long commands whose output is read line by line.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bb {

struct StreamingCommand {
    std::vector<std::string> argv;
    std::filesystem::path cwd;              // empty: inherit
    std::map<std::string, std::string> env; // added to (or overriding) our environment
};

struct StreamingResult {
    int exit_code = -1;
    bool interrupted = false;
};

// Runs a long command (make, tar) from an argv — never a shell — in its own process group,
// stdin from /dev/null, stdout and stderr merged and delivered line by line as they come.
// Ctrl-C stops the whole group. Throws RuntimeFailure when it cannot start.
StreamingResult run_streaming(const StreamingCommand& command,
                              const std::function<void(std::string_view line)>& on_line);

} // namespace bb
