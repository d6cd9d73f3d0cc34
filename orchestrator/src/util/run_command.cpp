#include "util/run_command.h"

#include "util/error.h"
#include "util/interrupt.h"
#include "util/subprocess.h"

#include <fmt/format.h>
#include <signal.h>
#include <stdexcept>

namespace bb {

namespace {
constexpr size_t k_output_limit = 16u << 20;
} // namespace

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
    if (argv.empty()) {
        throw std::invalid_argument("run_command: empty argv"); // a caller's bug
    }
    ChildSpec spec;
    spec.argv = argv;
    spec.tick = std::chrono::milliseconds(50);
    // Bounded: a helper that floods its output costs at most k_output_limit of memory.
    std::string output;
    bool truncated = false;
    bool timed_out = false;
    ChildHooks hooks;
    hooks.on_output = [&](std::string_view bytes, double) {
        const size_t room = k_output_limit - output.size();
        output.append(bytes.substr(0, room));
        truncated = truncated || bytes.size() > room;
    };
    // The child has its own process group, so Ctrl-C reaches bootbench only: stop the whole
    // group (a helper's own children too) on an interrupt or at the timeout.
    hooks.stop_signal = [&](double t) {
        timed_out = timed_out || t >= static_cast<double>(timeout.count());
        return interrupted() || timed_out ? SIGKILL : 0;
    };
    const ChildExit exit = run_child(spec, hooks);
    // A tool that is missing or cannot start is the environment failing, not the request.
    if (exit.missing_program) {
        throw RuntimeFailure("program not found on PATH: " + argv.front());
    }
    if (!exit.spawned) {
        throw RuntimeFailure(exit.spawn_error);
    }
    if (exit.stopped_with != 0 && interrupted()) {
        throw Interrupted(argv.front() + " stopped: interrupted");
    }
    if (exit.stopped_with != 0) {
        throw RuntimeFailure(argv.front() + " did not finish within " +
                             std::to_string(timeout.count()) + " s");
    }
    CommandResult result;
    result.exit_code = exit.exit_code();
    result.output = std::move(output);
    if (truncated) {
        result.output += fmt::format("\n[bootbench: output cut at {} MiB]\n", k_output_limit >> 20);
    }
    return result;
}

std::string version_of(const std::string& program) {
    if (find_program(program).empty()) {
        return {};
    }
    try {
        auto result = run_command({program, "--version"}, std::chrono::seconds(20));
        return result.output.substr(0, result.output.find('\n'));
    } catch (const Error&) {
        return {};
    }
}

} // namespace bb
