#pragma once
// A FAKE launcher, for unit tests only: it starts no process and boots nothing. Each run()
// plays a scripted guest — console chunks at given seconds since "spawn", then an ending (exit,
// hang, crash, lost host, Ctrl-C) — through the same callbacks qemu's launcher drives, on a
// clock of its own, so the run's stages are tested in milliseconds. Real guests are the
// integration tests' (tests/integration).
#include "util/interrupt.h"
#include "vm/launcher.h"

#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace bb::test {

struct FakeGuest {
    enum class End { Exit, Hang, Crash, HostLost, Interrupt };
    std::vector<std::pair<double, std::string>> console; // (seconds since spawn, bytes)
    End end = End::Exit;
    int exit_status = 0;                         // End::Exit
    int signal = 11;                             // End::Crash
    std::string host_failure = "fake host gone"; // End::HostLost
};

// A guest that reaches bootbench's timing marker after `seconds` and powers off.
inline FakeGuest booting_guest(double seconds) {
    FakeGuest guest;
    guest.console = {{0.1, "Booting Linux on physical CPU 0x0\n"},
                     {seconds, "BOOTBENCH-MARKER boot-done " + std::to_string(seconds) + "\n"},
                     {seconds + 0.1, "BOOTBENCH-MARKER end\n"}};
    return guest;
}

class FakeLauncher : public Launcher {
  public:
    // `script` gives the guest of each run: its spec and the number of this run (0, 1, ...).
    explicit FakeLauncher(std::function<FakeGuest(const QemuSpec&, int run)> script)
        : m_script(std::move(script)) {}

    LaunchResult run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) override {
        const FakeGuest guest = m_script(spec, m_runs++);
        LaunchResult result;
        result.spawned = true;
        result.argv = {"fake-qemu"};
        // Its guest uses no CPU of this machine: no foreign load is measured for it (as for a
        // remote libvirt guest), so the host's own load never makes a fake sample "loaded".
        result.remote = true;
        double now = 0;
        for (const auto& [at, bytes] : guest.console) {
            now = at;
            callbacks.on_output(bytes, now);
            if (callbacks.should_stop(now)) {
                result.stopped_by_us = true;
                result.wall_s = now;
                return result;
            }
        }
        return end(guest, callbacks, now, result);
    }

    int runs() const { return m_runs; }

  private:
    static LaunchResult end(const FakeGuest& guest, const ConsoleCallbacks& callbacks, double now,
                            LaunchResult result) {
        switch (guest.end) {
        case FakeGuest::End::Exit:
            result.exit_status = guest.exit_status;
            break;
        case FakeGuest::End::Crash:
            result.signal = guest.signal;
            break;
        case FakeGuest::End::HostLost:
            result.host_failure = guest.host_failure;
            break;
        case FakeGuest::End::Interrupt:
            request_interrupt(); // as a Ctrl-C during the boot would
            result.interrupted = true;
            break;
        case FakeGuest::End::Hang:
            // Silent until the monitor's limits stop it; a day of fake time at most.
            while (!callbacks.should_stop(now) && now < 86'400) {
                now += 1;
            }
            result.stopped_by_us = true;
            break;
        }
        result.wall_s = now;
        return result;
    }

    std::function<FakeGuest(const QemuSpec&, int)> m_script;
    std::atomic<int> m_runs{0};
};

} // namespace bb::test
