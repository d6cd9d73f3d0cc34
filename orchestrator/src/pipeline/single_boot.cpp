#include "pipeline/single_boot.h"

#include "console/param_check.h"
#include "pipeline/phase_metrics.h"
#include "schedule/host_load.h"
#include "store/boot_store.h"

#include <algorithm>
#include <fstream>
#include <iterator>

namespace bb {

namespace {
// An early (`__setup`) parameter has no sysfs entry; its name is a NUL-terminated string in
// an uncompressed kernel image (arm64 Image). A compressed bzImage shows nothing, so such a
// parameter is flagged there: docs/reliability.md lists this limit.
bool image_holds_string(const std::string& image_path, std::string_view name) {
    std::ifstream in(image_path, std::ios::binary);
    const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string& needle : {std::string(name) + '\0', std::string(name) + '=' + '\0'}) {
        if (std::search(image.begin(), image.end(), needle.begin(), needle.end()) != image.end()) {
            return true;
        }
    }
    return false;
}

std::optional<std::string> params_not_applied(const BootRecord& record,
                                              const ConsoleMonitor& monitor) {
    std::vector<std::string> unknown_lines;
    for (const auto& event : monitor.events()) {
        if (event.kind == ConsoleEvent::Kind::UnknownParams) {
            unknown_lines.push_back(event.text);
        }
    }
    const auto problems = check_params(
        record.cmdline, monitor.param_readbacks(), unknown_lines,
        [&record](std::string_view name) { return image_holds_string(record.kernel_path, name); });
    if (problems.empty()) {
        return std::nullopt;
    }
    return describe_param_problems(problems);
}
void record_initcalls(const InitcallTrace& trace, BootRecord& record) {
    const auto state = trace.state();
    if (!state) {
        return;
    }
    record.initcall_trace = std::string(to_string(*state));
    record.kernel_init_seconds = trace.run_init_s();
    record.initcalls = trace.records();
}
} // namespace

BootRecord boot_once(const QemuSpec& spec, const MonitorLimits& limits, Launcher& launcher) {
    BootRecord record;
    record.arch = std::string(to_string(spec.arch));
    record.machine = spec.machine.empty() ? default_machine(spec.arch) : spec.machine;
    record.smp = spec.smp;
    record.memory_mb = spec.memory_mb;
    record.kernel_path = spec.kernel.string();
    if (spec.initrd) {
        record.initrd_path = spec.initrd->string();
    }
    record.cmdline = effective_cmdline(spec);
    record.argv = qemu_argv(spec);
    record.accel = std::string(to_string(spec.accel));
    record.started_at = utc_now_iso8601();

    ConsoleMonitor monitor(limits);
    ConsoleCallbacks callbacks;
    callbacks.on_output = [&monitor](std::string_view bytes, double t) { monitor.feed(bytes, t); };
    callbacks.should_stop = [&monitor](double t) {
        monitor.tick(t);
        return monitor.stop_at() && t >= *monitor.stop_at();
    };
    const LoadWindow load;
    const LaunchResult launched = launcher.run(spec, callbacks);
    if (!launched.remote) {
        record.foreign_load = load.foreign_load(launched.guest_cpu_s);
    }
    if (!launched.argv.empty()) {
        record.argv = launched.argv;
    }
    record.launcher = launched.libvirt_uri.empty() ? "qemu" : "libvirt";
    record.libvirt_uri = launched.libvirt_uri;
    record.domain_xml = launched.domain_xml;
    if (!launched.host_failure.empty()) { // before or during the boot: the host is gone
        monitor.infrastructure_failed(launched.host_failure, launched.wall_s);
    } else if (!launched.spawned) {
        monitor.infrastructure_failed(launched.spawn_error, 0);
    } else if (launched.interrupted) {
        monitor.infrastructure_failed("interrupted by the user", launched.wall_s);
    } else {
        monitor.process_exited(launched.exit_status, launched.signal, launched.wall_s,
                               launched.stderr_tail);
    }
    record.outcome = monitor.outcome();
    record.outcome_reason = monitor.reason();
    record.boot_seconds = monitor.marker_host_s();
    record.timing_marker = limits.timing_marker;
    record.start_marker = limits.start_marker;
    record.guest_marker_seconds = monitor.marker_guest_s();
    record.first_byte_seconds = monitor.first_event_s(ConsoleEvent::Kind::FirstByte);
    record.banner_seconds = monitor.first_event_s(ConsoleEvent::Kind::Banner);
    record.run_init_seconds = monitor.first_event_s(ConsoleEvent::Kind::RunInit);
    record.wall_seconds = launched.wall_s;
    record.exit_status = launched.exit_status;
    record.exit_signal = launched.signal;
    record.console_bytes = static_cast<long long>(monitor.total_bytes());
    record.console_tail = monitor.tail();
    record.console_log = monitor.log();
    if (!launched.stderr_tail.empty()) {
        record.console_log += "\n[bootbench: qemu stderr]\n" + launched.stderr_tail;
    }
    record.events = monitor.events();
    record.metrics = monitor.metrics();
    add_phase_metrics(record);
    record.histograms = monitor.histograms();
    record.params_not_applied = params_not_applied(record, monitor);
    record_initcalls(monitor.initcalls(), record);
    return record;
}

} // namespace bb
