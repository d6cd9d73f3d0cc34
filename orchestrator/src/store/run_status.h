#pragma once
// Where a run stands: the words of runs.status (db/migrations/0001_initial.sql's CHECK), one
// enumerator each, so no part of bootbench compares or spells the strings itself.
#include <string_view>

namespace bb {

enum class RunStatus {
    Running,     // started and not finished (or its process died)
    Done,        // every planned sample booted
    Interrupted, // Ctrl-C or SIGTERM: the rest stays for a resume
    Failed,      // stopped by the environment: a store that failed, a busy host, every host lost
};

std::string_view to_string(RunStatus status);
// Throws Error for a word runs.status cannot hold.
RunStatus parse_run_status(std::string_view text);

} // namespace bb
