#pragma once
// `bootbench history EXPERIMENT --view phases`: where boot time goes, night by night. Per cell,
// one row per night with the medians of the phases of report/boot_phases.h over the night's
// boots (read by query_phases, so the used-sample rule and the moments are the phase view's);
// text, JSON and a page with one stacked bar per night. Medians only: the change-point scan
// stays with the endpoint (the default view).
#include "report/history.h"
#include "report/phase_samples.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bb {

struct HtmlContext;

struct CellPhaseHistory {
    std::string cell_key;
    // Grouped by night: axes {"night", "run", "date"}, one group per night with boots of the cell.
    PhaseSet nights;
};

struct PhaseHistory {
    std::string experiment;
    std::vector<NightRun> nights; // every nightly run of the experiment, in order
    std::vector<CellPhaseHistory> cells;
    std::map<std::string, int> from_marker; // start marker → boots left out for it
};

// Throws Error as query_history does (unknown experiment, no nightly run) and when no boot of
// the nights divides into phases.
PhaseHistory query_phase_history(Database& db, const HistoryQuery& query);

std::string render_phase_history_text(const PhaseHistory& history, size_t width = 100);
// The same document as text (aligned, wrapped at `width`) or Markdown.
std::string render_phase_history(const PhaseHistory& history, ReportFormat format,
                                 size_t width = 100);
nlohmann::json phase_history_json(const PhaseHistory& history);
std::string render_phase_history_html(const PhaseHistory& history, const HtmlContext& context);

} // namespace bb
