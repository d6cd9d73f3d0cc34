#pragma once
// The one "used sample" rule: which stored boots the statistics use by default. Its SQL twin is
// the v_samples view (`loaded`, `used`; db/migrations/0008_quiet_gate.sql), which every query
// of the reports reads (db/migrations/0014_warmup.sql is its latest form); this is the same rule
// for code that holds a BootRecord instead of a row (the `bootbench boot` summary).
// tests/unit/sample_rule_test.cpp stores every combination of the rule's inputs and checks that the
// view and this function agree on each.
#include "store/boot_record.h"

#include <fmt/format.h>
#include <string>

namespace bb {

// Boots stored before schema 8 have no `loaded` flag: they count as loaded above this foreign
// load (the fixed threshold the reports used then; later boots store the limit in force).
inline constexpr double k_legacy_max_foreign_load = 0.25;

inline bool is_loaded(const BootRecord& boot) {
    return boot.loaded.value_or(boot.foreign_load.value_or(0) > k_legacy_max_foreign_load);
}

// A warm-up boot (`warmup: N`, schema 14) is stored before a cell's repeat 0, numbered -1, -2, …
inline bool is_warmup_repeat(int repeat) {
    return repeat < 0;
}
inline bool is_warmup(const BootRecord& boot) {
    return is_warmup_repeat(boot.repeat_index);
}

// How a run's lines name a repeat: "r3", or "warmup 1" for repeat -1.
inline std::string repeat_label(int repeat) {
    return is_warmup_repeat(repeat) ? fmt::format("warmup {}", -repeat)
                                    : fmt::format("r{}", repeat);
}

// Outcome ok, not loaded, every kernel parameter it checked applied, and not a warm-up.
inline bool is_used_sample(const BootRecord& boot) {
    return boot.outcome == BootOutcome::Ok && !is_loaded(boot) && !boot.params_not_applied &&
           !is_warmup(boot);
}

} // namespace bb
