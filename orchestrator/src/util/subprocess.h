#pragma once
// The one way bootbench runs a child process — qemu, make, tar, apt, git, `--version` queries:
// from an argv, never a shell; with what util/child_setup.h gives every child (its own process
// group, SIGKILL when bootbench dies, no inherited descriptors, an optional CPU affinity);
// stdin from /dev/null; its output delivered as it comes; and a periodic check that may stop
// the whole group. run_command (captured output, a timeout) and run_streaming (lines, for make)
// are its everyday forms; the qemu launcher drives it directly.
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

struct ChildSpec {
    std::vector<std::string> argv;          // argv[0] without '/' is looked up on PATH
    std::filesystem::path cwd;              // empty: ours
    std::map<std::string, std::string> env; // added to (or overriding) our environment
    const std::vector<int>* cpus = nullptr; // CPU affinity; none: inherit ours
    bool separate_stderr = false;           // else stderr goes where stdout goes
    std::chrono::milliseconds tick{100};    // how often `stop_signal` is asked
};

struct ChildHooks {
    // A chunk of stdout (and of stderr, unless separate), `t` seconds after the spawn, taken
    // when it was read.
    std::function<void(std::string_view bytes, double t)> on_output;
    // A chunk of stderr, when `separate_stderr`.
    std::function<void(std::string_view bytes)> on_stderr;
    // Asked after each output chunk and every tick: the signal to stop the child's whole
    // process group with (SIGKILL, SIGTERM), or 0 to let it run. Only the first is sent.
    std::function<int(double t)> stop_signal;
};

struct ChildExit {
    bool spawned = false;
    bool missing_program = false; // argv[0] is not on PATH
    std::string spawn_error;      // why it did not start
    std::optional<int> exit_status;
    std::optional<int> signal; // the signal that ended it
    int stopped_with = 0;      // the signal we sent its group; 0: it ended by itself
    double wall_s = 0;
    int pid = 0;

    // The shell's convention: the exit status, or 128 + the signal.
    int exit_code() const { return exit_status ? *exit_status : 128 + signal.value_or(0); }
};

// Runs the child until its output is closed and it has exited; a child that closes its output
// but lingers is killed after 10 s, and whatever is left of its process group after it exits.
ChildExit run_child(const ChildSpec& spec, const ChildHooks& hooks);

// Full path of `program` on $PATH, or "" when absent.
std::string find_program(const std::string& program);

} // namespace bb
