#include "util/run_command.h"

#include "util/error.h"

#include <boost/process.hpp>

#include <future>

namespace bb {

namespace bp = boost::process;

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
    if (argv.empty()) {
        throw Error("run_command: empty argv");
    }
    std::string exe = argv.front().find('/') == std::string::npos ? find_program(argv.front())
                                                                  : argv.front();
    if (exe.empty()) {
        throw Error("program not found on PATH: " + argv.front());
    }
    boost::asio::io_context io;
    std::future<std::string> output;
    std::vector<std::string> args(argv.begin() + 1, argv.end());
    bp::child child(bp::exe = exe, bp::args = args, bp::std_in < bp::null,
                    (bp::std_out & bp::std_err) > output, io);
    io.run_for(timeout);
    CommandResult result;
    if (!io.stopped()) {
        child.terminate();
        throw Error(argv.front() + " did not finish within " + std::to_string(timeout.count()) +
                    " s");
    }
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
