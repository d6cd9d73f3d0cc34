#pragma once
// Where a boot's time goes: the one definition of its phases, which every phase view (report,
// compare, history) reads. A phase lies between two moments the console showed, each stored per
// boot on the host's clock from qemu's start (store/sample_selection.cpp's timing columns); its
// value is the difference of the two, so the phases of a boot add up to its endpoint.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace bb {

// The moments, in the order a boot passes them.
enum class BootMoment { QemuStart, FirstByte, Banner, RunInit, Marker };
inline constexpr size_t k_moment_count = 5;

struct BootMomentInfo {
    BootMoment moment;
    std::string_view label;  // how a phase's span names it
    std::string_view column; // the boots column (a report metric) holding it; "" for qemu's start
};

inline constexpr std::array<BootMomentInfo, k_moment_count> k_boot_moments{{
    {BootMoment::QemuStart, "qemu start", ""},
    {BootMoment::FirstByte, "first byte", "first_byte_seconds"},
    {BootMoment::Banner, "banner", "banner_seconds"},
    {BootMoment::RunInit, "Run /init", "run_init_seconds"},
    {BootMoment::Marker, "marker", "boot_seconds"},
}};

struct BootPhaseInfo {
    std::string_view name;
    BootMoment from;
    BootMoment to;
    // What the span holds, as the console shows it. The banner ("Linux version …") is the
    // kernel's first log line, but without earlycon it reaches the serial console only when the
    // console driver registers, so "pre-banner" holds the kernel's early start too; with no
    // firmware the first byte is the banner itself and the first phase holds the early kernel.
    std::string_view meaning;
};

inline constexpr size_t k_phase_count = 4;
inline constexpr std::array<BootPhaseInfo, k_phase_count> k_boot_phases{{
    {"firmware", BootMoment::QemuStart, BootMoment::FirstByte,
     "qemu's start-up and the firmware until the console's first byte"},
    {"pre-banner", BootMoment::FirstByte, BootMoment::Banner,
     "the rest of the firmware, the loader (EFI stub) and the kernel until its console shows "
     "the banner"},
    {"kernel", BootMoment::Banner, BootMoment::RunInit,
     "the kernel from its banner on the console to starting /init"},
    {"init", BootMoment::RunInit, BootMoment::Marker, "/init until it prints the timing marker"},
}};

// The whole the phases divide: the endpoint, boot_seconds timed from qemu's start.
inline constexpr BootPhaseInfo k_endpoint_phase{"endpoint", BootMoment::QemuStart,
                                                BootMoment::Marker,
                                                "qemu start to the timing marker (boot_seconds)"};

// One boot's moments in host seconds since qemu's start; a moment the console never showed
// (no banner under `quiet`, no marker after a hang) is empty. QemuStart is 0 by definition.
using BootMoments = std::array<std::optional<double>, k_moment_count>;
using PhaseValues = std::array<std::optional<double>, k_phase_count>;

// "first byte → banner"
std::string_view moment_label(BootMoment moment);
// The phase's value for one boot: `to` − `from`, empty when the boot lacks either moment.
std::optional<double> phase_value(const BootPhaseInfo& phase, const BootMoments& moments);
// Every phase of one boot, in k_boot_phases' order.
PhaseValues phase_values(const BootMoments& moments);

} // namespace bb
