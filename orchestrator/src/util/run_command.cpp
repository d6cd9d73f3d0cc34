#include "util/run_command.h"

#include "util/child_setup.h"
#include "util/error.h"
#include "util/interrupt.h"

#include <array>
#include <boost/process.hpp>
#include <fmt/format.h>
#include <functional>
#include <signal.h>

namespace bb {

namespace bp = boost::process;

namespace {
constexpr size_t k_output_limit = 16u << 20;
} // namespace

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
    bp::async_pipe pipe(io);
    const std::vector<std::string> args(argv.begin() + 1, argv.end());
    const ChildSetup setup;
    bp::child child(bp::exe = exe, bp::args = args,
                    bp::std_in<bp::null, (bp::std_out & bp::std_err)> pipe, setup);
    // Bounded: a helper that floods its output costs at most k_output_limit of memory.
    std::string output;
    bool truncated = false;
    std::array<char, 1 << 16> buffer{};
    std::function<void()> read = [&] {
        pipe.async_read_some(boost::asio::buffer(buffer),
                             [&](const boost::system::error_code& error, size_t bytes) {
                                 const size_t room = k_output_limit - output.size();
                                 output.append(buffer.data(), std::min(bytes, room));
                                 truncated = truncated || bytes > room;
                                 if (!error) {
                                     read();
                                 }
                             });
    };
    read();
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

std::string find_program(const std::string& program) {
    return bp::search_path(program).string();
}

} // namespace bb
