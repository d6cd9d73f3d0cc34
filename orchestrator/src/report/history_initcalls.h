#pragma once
// Which initcalls carry a change point of a nightly history (`bootbench history` of boot_seconds
// on traced nights, `trace: initcalls`): per initcall, the nights of the level after the point
// (B) against those of the level before it (A), each night one value — the median of that
// initcall over the night's used boots with a complete trace, 0 in a boot that did not run it.
// Compared as `compare --initcalls` compares boots (report/initcall_comparison.h: Hodges–Lehmann
// B − A, exact interval, Benjamini–Hochberg over the initcalls), but the night is the unit, as
// in the change-point scan and the phases' attribution (report/history_attribution.h).
#include "report/history.h"
#include "report/initcall_comparison.h"

namespace bb {

// Sets HistoryChange::initcalls of every change point whose levels both have traced nights;
// reads nothing when no cell has a change point, the metric is not boot_seconds or the
// database predates initcall traces.
void attribute_history_initcalls(Database& db, const HistoryQuery& query, History& history);

} // namespace bb
