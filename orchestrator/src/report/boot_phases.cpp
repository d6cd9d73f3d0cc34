#include "report/boot_phases.h"

namespace bb {

std::string_view moment_label(BootMoment moment) {
    return k_boot_moments[static_cast<size_t>(moment)].label;
}

std::optional<double> phase_value(const BootPhaseInfo& phase, const BootMoments& moments) {
    const auto& from = moments[static_cast<size_t>(phase.from)];
    const auto& to = moments[static_cast<size_t>(phase.to)];
    if (!from || !to) {
        return std::nullopt;
    }
    return *to - *from;
}

PhaseValues phase_values(const BootMoments& moments) {
    PhaseValues values;
    for (size_t p = 0; p < k_phase_count; ++p) {
        values[p] = phase_value(k_boot_phases[p], moments);
    }
    return values;
}

} // namespace bb
