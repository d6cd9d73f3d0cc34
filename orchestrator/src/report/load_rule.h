#pragma once
// When a boot counts as "loaded": foreign host load above the limit during the boot. The one
// place the report side states the rule (the runner passes its own limit in).
#include <optional>

namespace bb {

constexpr double k_default_contaminated_load = 0.25;

inline bool is_loaded(const std::optional<double>& foreign_load, double limit) {
    return foreign_load && *foreign_load > limit;
}

} // namespace bb
