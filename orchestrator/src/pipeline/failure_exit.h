#pragma once
// How a command that failed ends (README "Exit status"): the one place where the kind of what
// escaped it becomes bootbench's exit status, with the line main() prints for it.
#include "util/error.h"

#include <exception>
#include <string>

namespace bb {

struct FailureExit {
    ExitStatus status = k_exit_internal;
    std::string message; // one line for stderr, without its newline
};

// `database` is named in a bare SQLite error ("database disk image is malformed" alone does not
// say which file it is about).
FailureExit failure_exit(const std::exception_ptr& failure, const std::string& database);

} // namespace bb
