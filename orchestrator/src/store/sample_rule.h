#pragma once
// The one "used sample" rule: which stored boots the statistics use by default. Its SQL twin is
// the v_samples view (`loaded`, `used`; db/migrations/0008_quiet_gate.sql), which every query
// of the reports reads; this is the same rule for code that holds a BootRecord instead of a
// row (the `bootbench boot` summary). tests/unit/sample_rule_test.cpp stores every combination
// of the rule's inputs and checks that the view and this function agree on each.
#include "store/boot_record.h"

namespace bb {

// Boots stored before schema 8 have no `loaded` flag: they count as loaded above this foreign
// load (the fixed threshold the reports used then; later boots store the limit in force).
inline constexpr double k_legacy_max_foreign_load = 0.25;

inline bool is_loaded(const BootRecord& boot) {
    return boot.loaded.value_or(boot.foreign_load.value_or(0) > k_legacy_max_foreign_load);
}

// Outcome ok, not loaded, and every kernel parameter it checked applied.
inline bool is_used_sample(const BootRecord& boot) {
    return boot.outcome == BootOutcome::Ok && !is_loaded(boot) && !boot.params_not_applied;
}

} // namespace bb
