#pragma once
// How bootbench starts every child process (qemu, make, tar, apt, git, --version queries): the
// one place that decides what a child inherits. Passed to boost::process as an extension.
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace bb {

// Runs in the child between fork and exec, so only async-signal-safe calls here:
// - its own process group: Ctrl-C on the terminal is ours to handle, and kill(-pgid) stops the
//   child with everything it started (make's compilers, qemu's helpers);
// - SIGKILL when bootbench dies, so no orphan keeps a CPU (or a lock) busy;
// - no inherited descriptors beyond 0-2: another child's pipe must not leak into this one, or
//   that pipe's EOF would wait for this child too;
// - a clean signal mask, and optionally a CPU affinity (a boot's slot).
struct ChildSetup : boost::process::extend::handler {
    pid_t parent = getpid();
    const std::vector<int>* cpus = nullptr;

    template <class Executor> void on_exec_setup(Executor& /*unused*/) const {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) {
            _exit(127); // bootbench died before the prctl took effect
        }
        syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        if (cpus != nullptr && !cpus->empty()) {
            cpu_set_t set;
            CPU_ZERO(&set);
            for (int cpu : *cpus) {
                CPU_SET(cpu, &set);
            }
            sched_setaffinity(0, sizeof set, &set);
        }
    }
};

} // namespace bb
