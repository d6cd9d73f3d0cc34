#include "pipeline/accel_selection.h"

#include "pipeline/single_boot.h"
#include "util/error.h"
#include "util/run_command.h"

#include <fmt/format.h>

namespace bb {

std::string kvm_impossible_reason(Arch guest, const HostFacts& host) {
    if (guest != host_arch()) {
        return fmt::format("KVM cannot run {} guests on this {} host", to_string(guest),
                           to_string(host_arch()));
    }
    if (!host.kvm_device) {
        return "/dev/kvm is missing or not accessible";
    }
    return {};
}

AccelChoice choose_accel(AccelRequest request, const QemuSpec& probe_spec, const HostFacts& host,
                         long long host_id, BootStore& store, Launcher& launcher,
                         double probe_timeout_s, bool reprobe) {
    if (request == AccelRequest::Tcg) {
        return {Accel::Tcg, "tcg requested"};
    }
    const std::string impossible = kvm_impossible_reason(probe_spec.arch, host);
    if (request == AccelRequest::Kvm) {
        if (!impossible.empty()) {
            throw Error("--accel kvm: " + impossible + " (use --accel auto or tcg)");
        }
        return {Accel::Kvm, "kvm requested"};
    }
    if (!impossible.empty()) {
        return {Accel::Tcg, impossible};
    }
    const std::string arch(to_string(probe_spec.arch));
    const std::string qemu_version = version_of(qemu_binary(probe_spec.arch));
    if (!reprobe) {
        if (auto cached = store.latest_accel_probe(host_id, arch, qemu_version)) {
            if (cached->kvm_works) {
                return {Accel::Kvm, fmt::format("KVM probe passed ({})", cached->probed_at)};
            }
            return {Accel::Tcg,
                    fmt::format("KVM probe failed on {}: {}", cached->probed_at, cached->reason)};
        }
    }
    QemuSpec probe = probe_spec;
    probe.accel = Accel::Kvm;
    MonitorLimits limits;
    limits.total_timeout_s = probe_timeout_s;
    limits.silence_timeout_s = probe_timeout_s;
    limits.end_grace_s = 0; // the marker is all the probe needs
    limits.end_marker = limits.timing_marker;
    const BootRecord result = boot_once(probe, limits, launcher);
    AccelProbeRecord record;
    record.seconds = result.wall_seconds;
    record.kvm_works = result.boot_seconds.has_value();
    record.reason = record.kvm_works
                        ? fmt::format("marker after {:.2f} s under KVM", *result.boot_seconds)
                        : fmt::format("probe boot under KVM: {} ({})", to_string(result.outcome),
                                      result.outcome_reason);
    if (result.outcome == BootOutcome::InfraError && !record.kvm_works) {
        // Interrupted or could not spawn: not a verdict about KVM, do not cache it.
        return {Accel::Tcg, record.reason};
    }
    store.insert_accel_probe(host_id, arch, qemu_version, record);
    if (record.kvm_works) {
        return {Accel::Kvm, "KVM probe passed: " + record.reason};
    }
    return {Accel::Tcg, "KVM probe failed, using TCG: " + record.reason};
}

} // namespace bb
