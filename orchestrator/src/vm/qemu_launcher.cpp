#include "vm/qemu_launcher.h"

#include "util/interrupt.h"
#include "util/subprocess.h"

#include <chrono>
#include <signal.h>

namespace bb {

namespace {
constexpr auto k_console_tick = std::chrono::milliseconds(20);
constexpr size_t k_stderr_keep = 4096;
} // namespace

LaunchResult QemuLauncher::run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) {
    return run_argv(qemu_argv(spec), callbacks);
}

LaunchResult QemuLauncher::run_argv(const std::vector<std::string>& argv,
                                    const ConsoleCallbacks& callbacks) {
    LaunchResult result;
    result.argv = argv;
    ChildSpec spec;
    spec.argv = argv;
    spec.cpus = &m_cpus;
    spec.separate_stderr = true; // stdout is the serial console; stderr qemu's complaints
    spec.tick = k_console_tick;
    ChildHooks hooks;
    hooks.on_output = callbacks.on_output;
    hooks.on_stderr = [&result](std::string_view bytes) {
        result.stderr_tail.append(bytes);
        if (result.stderr_tail.size() > k_stderr_keep) {
            result.stderr_tail.erase(0, result.stderr_tail.size() - k_stderr_keep);
        }
    };
    hooks.stop_signal = [&result, &callbacks](double t) {
        result.interrupted = result.interrupted || interrupted();
        return result.interrupted || callbacks.should_stop(t) ? SIGKILL : 0;
    };
    const ChildExit exit = run_child(spec, hooks);
    if (!exit.spawned) {
        result.spawn_error =
            exit.missing_program
                ? argv.front() + " not found on PATH (install it: scripts/setup.sh)"
                : exit.spawn_error;
        return result;
    }
    result.spawned = true;
    result.pid = exit.pid;
    result.wall_s = exit.wall_s;
    result.stopped_by_us = exit.stopped_with != 0;
    if (exit.signal && !result.stopped_by_us) {
        result.signal = exit.signal;
    }
    result.exit_status = exit.exit_status;
    return result;
}

} // namespace bb
