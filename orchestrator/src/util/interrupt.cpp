#include "util/interrupt.h"

#include <csignal>

namespace bb {

namespace {
std::atomic<bool> g_interrupted{false};

extern "C" void on_signal(int signal_number) {
    if (g_interrupted.exchange(true)) {
        std::signal(signal_number, SIG_DFL);
        std::raise(signal_number);
    }
}
} // namespace

void install_interrupt_handlers() {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGHUP, &action, nullptr);
}

bool interrupted() { return g_interrupted.load(); }

void reset_interrupted() { g_interrupted.store(false); }

void request_interrupt() { g_interrupted.store(true); }

} // namespace bb
