#pragma once
// Which phases carry a change point of a nightly history (`bootbench history`, the endpoint
// boot_seconds): per phase, the nights of the level after the point (B) against those of the
// level before it (A), each night one value, the median of that phase over the night's used
// boots. They are compared as `compare --phases` compares boots (report/phase_attribution.h,
// Hodges–Lehmann shift B − A with its exact Mann–Whitney interval), but the night is the unit,
// as in the change-point scan: a night's boots share its host and are not independent
// replicates across nights. The phases are report/boot_phases.h's, read by query_phases.
#include "report/history.h"
#include "report/history_phases.h"
#include "report/phase_attribution.h"
#include "report/text_table.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bb {

struct ChangeAttribution {
    int first_before = 0; // nights (0-based, CellHistory::nights) of level A: [first_before, night)
    int night = 0;        // the change point: level B is [night, end_after)
    int end_after = 0;
    PhaseSet before; // one group (the cell), one value per night and phase
    PhaseSet after;
    PhaseAttribution attribution; // its group points into `before` and `after`

    ChangeAttribution() = default;
    ChangeAttribution(const ChangeAttribution&) = delete; // the pointers would dangle
    ChangeAttribution& operator=(const ChangeAttribution&) = delete;
};

// Sets HistoryChange::phases of every change point of `history`, from the phases of the same
// nights (`phases`: query_phase_history with the same query). Nights a phase does not divide
// (`quiet` prints no banner) give it no value, so a level without any is not compared.
void attribute_history_changes(History& history, const PhaseHistory& phases);
// The same, reading the phases of `query`'s nights, when the history is of boot_seconds and has
// a change point (otherwise nothing to attribute, and nothing is read).
void attribute_history_changes(Database& db, const HistoryQuery& query, History& history);

// Text: a heading naming both levels' nights, compare --phases' table, the line naming the
// phases that carry the shift. JSON: attribution_json's group with the levels' nights.
std::string render_change_attribution(const ChangeAttribution& change, size_t width);
// compare --phases' table without the cell's column and the spans' (the history names the cell
// above it; attribution_lines' last line names the spans), its last column headed "carries".
Table change_attribution_table(const ChangeAttribution& change);
nlohmann::json change_attribution_json(const ChangeAttribution& change);
// "per phase, B = nights 7–12 against A = nights 1–6, one value per night (…)"
std::string change_levels_text(const ChangeAttribution& change);
// "kernel (B slower)"; "none" when no phase's interval excludes 0.
std::string change_carriers_text(const ChangeAttribution& change);

} // namespace bb
