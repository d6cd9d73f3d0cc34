#include "util/streaming_command.h"

#include "util/child_setup.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/run_command.h"

#include <array>
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace bb {

namespace bp = boost::process;
namespace asio = boost::asio;

StreamingResult run_streaming(const StreamingCommand& command,
                              const std::function<void(std::string_view)>& on_line) {
    const std::string exe = command.argv.front().find('/') == std::string::npos
                                ? find_program(command.argv.front())
                                : command.argv.front();
    if (exe.empty()) {
        throw Error(command.argv.front() + " not found on PATH (run scripts/setup.sh)");
    }
    asio::io_context io;
    bp::async_pipe pipe(io);
    bp::environment env = boost::this_process::environment();
    for (const auto& [name, value] : command.env) {
        // Not env[name]: Boost 1.74's environment::find compares the name past the end of a
        // shorter entry (a heap over-read ASan reports); set() checks the length first.
        env.set(name, value);
    }
    const ChildSetup setup;
    std::error_code ec;
    const std::vector<std::string> args(command.argv.begin() + 1, command.argv.end());
    const std::string cwd =
        command.cwd.empty() ? std::filesystem::current_path().string() : command.cwd.string();
    bp::child child(bp::exe = exe, bp::args = args, bp::start_dir = cwd, env,
                    bp::std_in<bp::null, (bp::std_out & bp::std_err)> pipe, setup, ec);
    if (ec) {
        throw Error("cannot start " + exe + ": " + ec.message());
    }
    StreamingResult result;
    std::array<char, 1 << 16> buffer{};
    std::string partial;
    asio::steady_timer ticker(io);
    bool done = false;
    std::function<void()> read = [&] {
        pipe.async_read_some(
            asio::buffer(buffer), [&](const boost::system::error_code& error, size_t bytes) {
                partial.append(buffer.data(), bytes);
                for (size_t newline; (newline = partial.find('\n')) != std::string::npos;) {
                    on_line(std::string_view(partial).substr(0, newline));
                    partial.erase(0, newline + 1);
                }
                if (error) {
                    done = true;
                    ticker.cancel();
                } else {
                    read();
                }
            });
    };
    std::function<void()> tick = [&] {
        ticker.expires_after(std::chrono::milliseconds(100));
        ticker.async_wait([&](const boost::system::error_code& error) {
            if (error || done) {
                return;
            }
            if (interrupted() && !result.interrupted) {
                result.interrupted = true;
                kill(-child.id(), SIGTERM);
            }
            tick();
        });
    };
    read();
    tick();
    io.run();
    if (!partial.empty()) {
        on_line(partial);
    }
    child.wait();
    result.exit_code = child.exit_code();
    return result;
}

} // namespace bb
