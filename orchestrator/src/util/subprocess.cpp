#include "util/subprocess.h"

#include "util/child_setup.h"
#include "util/monotonic_clock.h"

#include <array>
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bb {

namespace bp = boost::process;
namespace asio = boost::asio;

namespace {

constexpr int k_linger_polls = 1000; // × 10 ms: how long a child may outlive its output

// Reads the child's pipes and asks the hooks, on one thread, until both pipes are closed.
class ChildLoop {
  public:
    ChildLoop(asio::io_context& io, const ChildSpec& spec, const ChildHooks& hooks)
        : m_out(io), m_err(io), m_timer(io), m_spec(spec), m_hooks(hooks) {}

    bp::async_pipe& out() { return m_out; }
    bp::async_pipe& err() { return m_err; }

    void start(pid_t pgid, double start) {
        m_pgid = pgid;
        m_start = start;
        read(m_out, m_out_buffer, m_out_done, true);
        if (m_spec.separate_stderr) {
            read(m_err, m_err_buffer, m_err_done, false);
        } else {
            m_err_done = true;
        }
        arm_timer();
    }

    int stopped_with() const { return m_sent; }
    void kill_group() {
        if (m_pgid > 0 && m_sent == 0) {
            m_sent = SIGKILL;
            kill(-m_pgid, SIGKILL);
        }
    }

  private:
    double now() const { return monotonic_seconds() - m_start; }

    void read(bp::async_pipe& pipe, std::array<char, 1 << 16>& buffer, bool& done, bool is_out) {
        pipe.async_read_some(asio::buffer(buffer),
                             [this, &pipe, &buffer, &done,
                              is_out](const boost::system::error_code& ec, size_t bytes) {
                                 const double t = now(); // stamped before any processing
                                 if (bytes > 0) {
                                     deliver(std::string_view(buffer.data(), bytes), t, is_out);
                                 }
                                 if (ec) {
                                     done = true;
                                     if (m_out_done && m_err_done) {
                                         m_timer.cancel();
                                     }
                                 } else {
                                     read(pipe, buffer, done, is_out);
                                 }
                             });
    }

    void deliver(std::string_view bytes, double t, bool is_out) {
        if (!is_out) {
            m_hooks.on_stderr(bytes);
            return;
        }
        m_hooks.on_output(bytes, t);
        check(t);
    }

    void arm_timer() {
        m_timer.expires_after(m_spec.tick);
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
        const int signal = m_hooks.stop_signal(t); // asked even after a stop: it may count
        if (signal != 0 && m_sent == 0 && m_pgid > 0) {
            m_sent = signal;
            kill(-m_pgid, signal);
        }
    }

    bp::async_pipe m_out;
    bp::async_pipe m_err;
    asio::steady_timer m_timer;
    const ChildSpec& m_spec;
    const ChildHooks& m_hooks;
    pid_t m_pgid = 0;
    double m_start = 0;
    int m_sent = 0;
    std::array<char, 1 << 16> m_out_buffer{};
    std::array<char, 1 << 16> m_err_buffer{};
    bool m_out_done = false;
    bool m_err_done = false;
};

bp::child spawn(const std::string& exe, const ChildSpec& spec, ChildLoop& loop,
                std::error_code& error) {
    bp::environment env = boost::this_process::environment();
    for (const auto& [name, value] : spec.env) {
        // Not env[name]: Boost 1.74's environment::find compares the name past the end of a
        // shorter entry (a heap over-read ASan reports); set() checks the length first.
        env.set(name, value);
    }
    const std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
    const std::string cwd =
        spec.cwd.empty() ? std::filesystem::current_path().string() : spec.cwd.string();
    ChildSetup setup;
    setup.cpus = spec.cpus;
    if (spec.separate_stderr) {
        return bp::child(bp::exe = exe, bp::args = args, bp::start_dir = cwd, env,
                         bp::std_in<bp::null, bp::std_out> loop.out(), bp::std_err > loop.err(),
                         setup, error);
    }
    return bp::child(bp::exe = exe, bp::args = args, bp::start_dir = cwd, env,
                     bp::std_in<bp::null, (bp::std_out & bp::std_err)> loop.out(), setup, error);
}

// Both pipes are closed: the child is gone or about to be. Never leave it behind.
// (Boost 1.74's wait_for can sleep its whole timeout: poll instead.)
void reap(bp::child& child, ChildLoop& loop, ChildExit& exit) {
    for (int i = 0; i < k_linger_polls && child.running(); ++i) {
        usleep(10'000);
    }
    if (child.running()) {
        loop.kill_group();
    }
    child.wait();
    exit.stopped_with = loop.stopped_with();
    const int status = child.native_exit_code();
    if (WIFSIGNALED(status)) {
        exit.signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        exit.exit_status = WEXITSTATUS(status);
    }
    // A grandchild could still hold the group: make sure nothing survives us.
    kill(-child.id(), SIGKILL);
}

} // namespace

ChildExit run_child(const ChildSpec& spec, const ChildHooks& hooks) {
    ChildExit exit;
    const std::string& program = spec.argv.at(0);
    const std::string exe =
        program.find('/') == std::string::npos ? find_program(program) : program;
    if (exe.empty()) {
        exit.missing_program = true;
        exit.spawn_error = program + " not found on PATH";
        return exit;
    }
    asio::io_context io;
    ChildLoop loop(io, spec, hooks);
    std::error_code error;
    const double start = monotonic_seconds();
    bp::child child = spawn(exe, spec, loop, error);
    if (error) {
        exit.spawn_error = "cannot start " + exe + ": " + error.message();
        return exit;
    }
    exit.spawned = true;
    exit.pid = child.id();
    loop.start(child.id(), start);
    io.run();
    reap(child, loop, exit);
    exit.wall_s = monotonic_seconds() - start;
    return exit;
}

std::string find_program(const std::string& program) {
    return bp::search_path(program).string();
}

} // namespace bb
