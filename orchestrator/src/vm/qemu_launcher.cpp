#include "vm/qemu_launcher.h"

#include "util/child_setup.h"
#include "util/interrupt.h"
#include "util/monotonic_clock.h"
#include "util/run_command.h"

#include <array>
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <chrono>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bb {

namespace bp = boost::process;
namespace asio = boost::asio;

namespace {
constexpr auto k_tick = std::chrono::milliseconds(20);
constexpr size_t k_stderr_keep = 4096;

class LaunchLoop {
  public:
    LaunchLoop(asio::io_context& io, const ConsoleCallbacks& callbacks, double start)
        : m_io(io), m_out(io), m_err(io), m_timer(io), m_callbacks(callbacks), m_start(start) {}

    bp::async_pipe& out() { return m_out; }
    bp::async_pipe& err() { return m_err; }

    void start(pid_t pgid) {
        m_pgid = pgid;
        read_console();
        read_stderr();
        arm_timer();
    }

    bool stopped_by_us() const { return m_stopped_by_us; }
    bool was_interrupted() const { return m_interrupted; }
    std::string stderr_tail() const { return m_stderr; }
    void stop_group() {
        if (m_pgid > 0 && !m_stopped_by_us) {
            m_stopped_by_us = true;
            kill(-m_pgid, SIGKILL);
        }
    }

  private:
    double now() const { return monotonic_seconds() - m_start; }

    void read_console() {
        m_out.async_read_some(asio::buffer(m_out_buffer),
                              [this](const boost::system::error_code& ec, size_t bytes) {
                                  const double t = now(); // stamped before any processing
                                  if (bytes > 0) {
                                      m_callbacks.on_output({m_out_buffer.data(), bytes}, t);
                                      check(t);
                                  }
                                  if (ec) {
                                      m_out_done = true;
                                      finish_if_done();
                                  } else {
                                      read_console();
                                  }
                              });
    }

    void read_stderr() {
        m_err.async_read_some(asio::buffer(m_err_buffer),
                              [this](const boost::system::error_code& ec, size_t bytes) {
                                  m_stderr.append(m_err_buffer.data(), bytes);
                                  if (m_stderr.size() > k_stderr_keep) {
                                      m_stderr.erase(0, m_stderr.size() - k_stderr_keep);
                                  }
                                  if (ec) {
                                      m_err_done = true;
                                      finish_if_done();
                                  } else {
                                      read_stderr();
                                  }
                              });
    }

    void arm_timer() {
        m_timer.expires_after(k_tick);
        m_timer.async_wait([this](const boost::system::error_code& ec) {
            // A tick already queued when cancel() ran arrives with success: stop here too.
            if (ec || (m_out_done && m_err_done)) {
                return;
            }
            check(now());
            arm_timer();
        });
    }

    void check(double t) {
        if (interrupted()) {
            m_interrupted = true;
            stop_group();
        } else if (m_callbacks.should_stop(t)) {
            stop_group();
        }
    }

    void finish_if_done() {
        if (m_out_done && m_err_done) {
            m_timer.cancel();
        }
    }

    asio::io_context& m_io;
    bp::async_pipe m_out;
    bp::async_pipe m_err;
    asio::steady_timer m_timer;
    const ConsoleCallbacks& m_callbacks;
    double m_start;
    pid_t m_pgid = 0;
    std::array<char, 1 << 16> m_out_buffer{};
    std::array<char, 4096> m_err_buffer{};
    std::string m_stderr;
    bool m_out_done = false;
    bool m_err_done = false;
    bool m_stopped_by_us = false;
    bool m_interrupted = false;
};
} // namespace

LaunchResult QemuLauncher::run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) {
    return run_argv(qemu_argv(spec), callbacks);
}

LaunchResult QemuLauncher::run_argv(const std::vector<std::string>& argv,
                                    const ConsoleCallbacks& callbacks) {
    LaunchResult result;
    result.argv = argv;
    const std::string exe =
        argv.front().find('/') == std::string::npos ? find_program(argv.front()) : argv.front();
    if (exe.empty()) {
        result.spawn_error = argv.front() + " not found on PATH (install it: scripts/setup.sh)";
        return result;
    }
    asio::io_context io;
    const double start = monotonic_seconds();
    LaunchLoop loop(io, callbacks, start);
    std::error_code spawn_error;
    const std::vector<std::string> args(argv.begin() + 1, argv.end());
    ChildSetup setup;
    setup.cpus = &m_cpus;
    bp::child child(bp::exe = exe, bp::args = args, bp::std_in<bp::null, bp::std_out> loop.out(),
                    bp::std_err > loop.err(), setup, spawn_error);
    if (spawn_error) {
        result.spawn_error = "cannot start " + exe + ": " + spawn_error.message();
        return result;
    }
    result.spawned = true;
    result.pid = child.id();
    loop.start(child.id());
    io.run();
    // Both pipes are closed: qemu is gone or is about to be. Never leave it behind.
    // (Boost 1.74's wait_for can sleep its whole timeout: poll instead.)
    for (int i = 0; i < 1000 && child.running(); ++i) {
        usleep(10'000);
    }
    if (child.running()) {
        loop.stop_group();
    }
    child.wait();
    result.wall_s = monotonic_seconds() - start;
    result.stopped_by_us = loop.stopped_by_us();
    result.interrupted = loop.was_interrupted();
    result.stderr_tail = loop.stderr_tail();
    const int status = child.native_exit_code();
    if (WIFSIGNALED(status)) {
        if (!result.stopped_by_us) {
            result.signal = WTERMSIG(status);
        }
    } else if (WIFEXITED(status)) {
        result.exit_status = WEXITSTATUS(status);
    }
    // A grandchild could still hold the group: make sure nothing survives us.
    kill(-child.id(), SIGKILL);
    return result;
}

} // namespace bb
