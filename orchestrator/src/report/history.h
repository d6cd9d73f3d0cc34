#pragma once
// `bootbench history`: a nightly experiment read night by night. For each cell, every night's
// median with its interval and n (stats/night_history.h), the between- and within-night
// variance, and the change points over the whole history (stats/change_points.h), each naming
// its first night and the inputs that changed that night (build key and its parts, qemu,
// firmware, host). The store reads (store/night_queries.h, store/sample_selection.h); this
// groups and computes; history_renderer.cpp and history_html.cpp print.
#include "report/report_format.h"
#include "report/text_table.h"
#include "stats/change_points.h"
#include "stats/night_history.h"
#include "stats/result.h"
#include "store/database.h"
#include "store/night_queries.h"
#include "util/host_conditions.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace bb {

// Fewer nights than this in a cell: no change-point test (3 nights on each side of a shift,
// and one more so that a shift has somewhere to be).
constexpr int k_min_history_nights = 7;

struct HistoryQuery {
    std::string experiment;
    std::string metric = "boot_seconds";
    std::vector<std::pair<std::string, std::vector<std::string>>> only; // --only AXIS=V1,V2
    double alpha = 0.05;
};

// One night of one cell.
struct HistoryNight {
    NightRun run;
    std::string date;           // the run's start, YYYY-MM-DD
    std::vector<double> values; // the night's used boots' values, by boot id
    stats::Result median;       // of those, with its order-statistic interval
    int excluded = 0; // the night's boots of this cell not used (failed, loaded, no value)
    NightInputs inputs;
    bool flagged = false; // the first night of a change point
    // The host conditions that differ from the previous night's (util/host_conditions.h),
    // whether or not the night is flagged: a night measured on a changed host says so.
    std::vector<HostConditionChange> host_changes;
};

struct ChangeAttribution;
struct InitcallComparison;

// One input that differs between a change point's first night and the night before it.
struct InputChange {
    std::string input; // build key, kernel, patches, config, qemu, firmware, host, host NAME
    std::string before;
    std::string after;
};

struct HistoryChange {
    int night = 0; // index into CellHistory::nights
    stats::ChangePoint point;
    std::vector<InputChange> changed; // vs the night before it
    bool host_change = false;         // the host changed that night: the shift may be the host's
    // Which phases carry it, nights as units (report/history_attribution.h); null when the
    // metric is not boot_seconds, whose phases they are. Shared: the attribution points into
    // itself and is never copied.
    std::shared_ptr<const ChangeAttribution> phases;
    // Which initcalls carry it, nights as units (report/history_initcalls.h); null when the
    // nights were not traced (`trace: initcalls`).
    std::shared_ptr<const InitcallComparison> initcalls;
};

struct CellHistory {
    std::string cell_key;
    std::vector<HistoryNight> nights; // the nights with a used boot of the cell, in order
    // Of log boot time; with change points, each level divided by its own median night first,
    // so that a shift does not count as night-to-night noise.
    stats::NightVariance variance;
    std::vector<HistoryChange> changes;
    std::string insufficient; // why there was no change-point test; empty when there was one
    // What the scan could see with this many nights (stats::visible_step_positions): which
    // nights a perfect step could start at and be found, or how many nights it takes.
    std::string visibility;
};

struct History {
    std::string experiment;
    std::string metric;
    std::string unit;     // "s" for the timing columns, the metrics table's unit otherwise
    bool seconds = false; // values are times in seconds
    double alpha = 0.05;
    std::vector<NightRun> nights; // every nightly run of the experiment, in order
    std::vector<CellHistory> cells;
};

// Throws Error for an unknown experiment or metric, and when the experiment has no nightly run
// or none with a boot to use.
History query_history(Database& db, const HistoryQuery& query);

// The experiment's nightly runs (store/night_queries.h); throws Error when it has none.
std::vector<NightRun> require_nightly_runs(Database& db, const std::string& experiment);
// Every night as JSON: run_id, started_at, status.
nlohmann::json nights_json(const std::vector<NightRun>& nights);

// The inputs of `after` that differ from `before`'s (build key first, host last).
std::vector<InputChange> changed_inputs(const NightInputs& before, const NightInputs& after);

// The host conditions that differ between two nights of a cell; none when either night has
// none recorded.
std::vector<HostConditionChange> night_host_changes(const NightInputs& before,
                                                    const NightInputs& after);

// Renderings (history_renderer.cpp). Text: per cell a table of nights and the change points
// below it, fitted to `width` columns (readable at 100). JSON: the keys docs/nightly.md lists.
std::string render_history_text(const History& history, size_t width = 100);
// The same document as text (aligned, wrapped at `width`) or Markdown.
std::string render_history(const History& history, ReportFormat format, size_t width = 100);
nlohmann::json history_json(const History& history);

// The page (history_html.cpp): per cell a chart of the night medians over time with their
// intervals, the first night of each shift ringed, the change table and the nights' table.
struct HtmlContext;
std::string render_history_html(const History& history, const HtmlContext& context);

// Pieces every rendering shares, so the text and the page say the same in the same words.
Table history_nights_table(const History& history, const CellHistory& cell);
std::string history_variance_text(const CellHistory& cell);
std::string history_night_label(const CellHistory& cell, int night); // "night 8 (run 8, date)"
std::string history_changed_text(const HistoryChange& change);       // "build key a → b; …"
std::string history_ratio_text(const stats::Result& ratio); // "×1.050 [1.04, 1.06] (+5.0 %)"

} // namespace bb
