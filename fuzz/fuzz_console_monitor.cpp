// libFuzzer target: any bytes as a serial console, fed in chunks (the first byte of the input
// chooses the chunk size, so markers and escapes get split across reads), then qemu's exit.
// The monitor must stay bounded and consistent; the parameter check runs on what it saw.
#include "console/console_monitor.h"
#include "console/kernel_cmdline.h"
#include "console/param_check.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const size_t chunk = 1 + data[0] % 64;
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    bb::MonitorLimits limits;
    limits.log_limit_bytes = 4096; // small, so the head/tail bookkeeping is exercised
    limits.tail_bytes = 512;
    bb::ConsoleMonitor monitor(limits);
    double t = 0;
    for (size_t at = 0; at < bytes.size(); at += chunk) {
        monitor.feed(bytes.substr(at, chunk), t);
        t += 0.01;
        monitor.tick(t);
    }
    monitor.process_exited(0, std::nullopt, t, "stderr");
    if (monitor.log().size() > 2 * limits.log_limit_bytes + 128 ||
        monitor.tail().size() > limits.tail_bytes) {
        __builtin_trap(); // memory must stay bounded however long the console runs
    }
    std::vector<std::string> unknown;
    for (const auto& event : monitor.events()) {
        if (event.kind == bb::ConsoleEvent::Kind::UnknownParams) {
            unknown.push_back(event.text);
        }
    }
    // The console's bytes double as a command line: the kernel's splitting must not choke.
    (void)bb::check_params(bytes, monitor.param_readbacks(), unknown,
                           [](std::string_view name) { return name.size() % 2 == 0; });
    (void)bb::parse_kernel_cmdline(bytes);
    (void)monitor.outcome();
    (void)monitor.marker_host_s();
    return 0;
}
