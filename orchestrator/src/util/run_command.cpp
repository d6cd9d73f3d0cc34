#include "util/run_command.h"

#include "util/child_setup.h"
#include "util/error.h"
#include "util/interrupt.h"

#include <boost/process.hpp>
#include <future>
#include <signal.h>

namespace bb {

namespace bp = boost::process;

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
    if (argv.empty()) {
        throw Error("run_command: empty argv");
    }
    std::string exe =
        argv.front().find('/') == std::string::npos ? find_program(argv.front()) : argv.front();
    if (exe.empty()) {
        throw Error("program not found on PATH: " + argv.front());
    }
    boost::asio::io_context io;
    std::future<std::string> output;
    std::vector<std::string> args(argv.begin() + 1, argv.end());
    const ChildSetup setup;
    bp::child child(bp::exe = exe, bp::args = args,
                    bp::std_in<bp::null, (bp::std_out & bp::std_err)> output, io, setup);
    // The child has its own process group, so Ctrl-C reaches bootbench only: poll for it, and
    // stop the whole group (a helper's own children too) on an interrupt or at the timeout.
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!io.stopped()) {
        io.run_for(std::chrono::milliseconds(50));
        if (io.stopped()) {
            break;
        }
        if (interrupted() || std::chrono::steady_clock::now() >= deadline) {
            kill(-child.id(), SIGKILL);
            child.wait();
            if (interrupted()) {
                throw Interrupted(argv.front() + " stopped: interrupted");
            }
            throw RuntimeFailure(argv.front() + " did not finish within " +
                                 std::to_string(timeout.count()) + " s");
        }
    }
    CommandResult result;
    child.wait();
    result.exit_code = child.exit_code();
    result.output = output.get();
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

std::string find_program(const std::string& program) {
    return bp::search_path(program).string();
}

} // namespace bb
