#pragma once
// Kinds of failure, as in ccache: `Error` is something the user can fix (bad flag, missing
// file) and carries a message that says what, where and what to do; `RuntimeFailure` is the
// environment failing a valid request; anything else escaping to main() is a bug.
// pipeline/failure_exit.h turns each kind into its exit status.
#include <stdexcept>
#include <string>

namespace bb {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The environment failed while the user's request was fine (a database that stayed locked or
// filled its disk, a kernel build that failed, a tool or package that is not installed, a guest
// host lost):
// exit status 3, with a message that says what to do next.
// An Error too, so code that reports any failure with a message (doctor, a fleet leaving a host
// out) catches it as one; main() tells the kinds apart.
class RuntimeFailure : public Error {
  public:
    using Error::Error;
};

// The user stopped the work (Ctrl-C, SIGTERM) before it finished: exit status 130.
class Interrupted : public Error {
  public:
    using Error::Error;
};

// bootbench's exit statuses, one meaning each (README "Exit status", `bootbench --help`).
enum ExitStatus : int {
    k_exit_ok = 0,
    k_exit_verdict = 1, // the kernel under test: slower / a regression / a boot that failed
    k_exit_usage = 2,   // usage or configuration: Error
    k_exit_runtime = 3, // the environment: RuntimeFailure (build failed, qemu missing, ...)
    // A bug in bootbench (an exception of no kind above): not 3, so a script that retries when
    // the environment failed does not retry a bug. 70 is sysexits.h's EX_SOFTWARE.
    k_exit_internal = 70,
    k_exit_interrupted = 130,
};

} // namespace bb
