#pragma once
// When a boot counts as "loaded" is decided in one place, the v_samples view (schema 8): the
// flag the runner stored with the quiet-gate limit in force (docs/experiments.md#quiet), else,
// for boots stored before schema 8, foreign load above 0.25. The report reads that column for a
// boot `b` of its statements; it never derives the rule again.

namespace bb {

constexpr const char* k_loaded_sql = "(SELECT s.loaded FROM v_samples s WHERE s.boot_id = b.id)";

} // namespace bb
