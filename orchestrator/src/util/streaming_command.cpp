#include "util/streaming_command.h"

#include "util/error.h"
#include "util/interrupt.h"
#include "util/subprocess.h"

#include <signal.h>

namespace bb {

StreamingResult run_streaming(const StreamingCommand& command,
                              const std::function<void(std::string_view)>& on_line) {
    ChildSpec spec;
    spec.argv = command.argv;
    spec.cwd = command.cwd;
    spec.env = command.env;
    std::string partial;
    ChildHooks hooks;
    hooks.on_output = [&](std::string_view bytes, double) {
        partial.append(bytes);
        for (size_t newline; (newline = partial.find('\n')) != std::string::npos;) {
            on_line(std::string_view(partial).substr(0, newline));
            partial.erase(0, newline + 1);
        }
    };
    // make gets SIGTERM, so it can remove the half-written target it was making.
    hooks.stop_signal = [](double) { return interrupted() ? SIGTERM : 0; };
    const ChildExit exit = run_child(spec, hooks);
    // A tool that is missing or cannot start is the environment failing, not the request.
    if (exit.missing_program) {
        throw RuntimeFailure(command.argv.front() + " not found on PATH (run scripts/setup.sh)");
    }
    if (!exit.spawned) {
        throw RuntimeFailure(exit.spawn_error);
    }
    if (!partial.empty()) {
        on_line(partial);
    }
    StreamingResult result;
    result.exit_code = exit.exit_code();
    result.interrupted = exit.stopped_with != 0;
    return result;
}

} // namespace bb
