#pragma once
// The verdict of a declared analysis (docs/reporting.md#the-verdict-table-view-verdict): for every
// compared pair within every condition (the values of the other axes), the estimate B / A (or
// B − A) with its exact interval, the p-value, Holm's adjustment over the declared family and the
// decision at α. Only used boots enter (v_samples.used); the left-out ones are counted.
#include "experiment/analysis.h"
#include "report/endpoint_samples.h"
#include "report/report_format.h"
#include "report/text_table.h"
#include "stats/result.h"
#include "store/database.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct VerdictRow {
    std::string condition; // "hz=250, smp=2"; "all boots" without other axes
    ComparedPair pair;
    int n_a = 0; // used boots with a value (paired: the pairs)
    int n_b = 0;
    int left_out_a = 0; // failed, loaded, or without the endpoint
    int left_out_b = 0;
    int unpaired = 0;    // used boots without a partner in their round (paired only)
    stats::Result ratio; // B / A on the log scale (when the analysis asks for ratios)
    stats::Result shift; // B − A
    double p_adjusted = stats::k_nan;
    std::string decision; // B slower | B faster | no difference shown | insufficient: …

    // A trend analysis's row (pair, ratio and shift unused): per declared value in order, its
    // used boots and their median (NaN without any); the test across them and J's mean when
    // there is no trend. decision: increasing | decreasing | no trend shown | not tested: …
    std::vector<int> trend_n;
    std::vector<double> trend_medians;
    stats::Result trend;
    double trend_null_mean = stats::k_nan;

    const stats::Result& primary(const Analysis& analysis) const {
        if (analysis.is_trend()) {
            return trend;
        }
        return analysis.ratio ? ratio : shift;
    }
};

struct VerdictTable {
    long long run_id = 0;
    std::string experiment;
    Analysis analysis; // a secondary table's: the primary's with its own endpoint
    std::vector<VerdictRow> rows;
    // A premise's margin (SecondaryEndpoint::within): its rows decide "holds" or not.
    std::optional<double> within;
    // The declared secondary endpoints, in declared order (empty in a secondary table).
    std::vector<VerdictTable> secondary;
};

// Pure: the rows from a run's boots (endpoint_samples.h).
std::vector<VerdictRow> verdict_rows(const Analysis& analysis,
                                     const std::vector<EndpointBoot>& boots);

// A premise's rows decided against its margin M: "holds: within ±M" when the whole interval of
// B / A lies in [1 / (1 + M), 1 + M]; "fails: moved beyond ±M (B higher|lower)" when the whole
// interval lies outside it; else "not shown within ±M", with "(a move is significant)" when
// Holm's p is at most α (a move smaller than M is still possible). Pure.
void decide_premise(const Analysis& analysis, double within, std::vector<VerdictRow>& rows);

// The run's stored analysis applied to its boots, with its secondary endpoints. Error when the
// run has none.
VerdictTable compute_verdict(Database& db, long long run_id);

// The runs among `runs` (all runs when empty), of `experiment` when non-empty, that declare an
// analysis: every other figure of theirs is exploratory.
std::vector<long long> runs_with_analysis(Database& db, const std::vector<long long>& runs,
                                          const std::string& experiment);

// The line above every other figure of runs that declared an analysis ("" when none did):
// their verdict answers the declared question, the rest is exploratory. `markdown`: a quote.
// `db_argument` ("--db 'x.sqlite' " or "") goes into the printed command, so it runs as shown.
std::string exploratory_note(const std::vector<long long>& runs_with_analysis, bool markdown,
                             const std::string& db_argument);

// True when a primary comparison decided "B slower" (or "B worse"): the exit rule `compare`
// has, for `report --view verdict` to gate CI with (README, exit status 1).
bool decided_against_b(const VerdictTable& table);

// The verdict before layout: a heading naming the analysis, one row per comparison (or per
// condition of a trend), then notes (the left-out counts; a trend's medians).
struct VerdictDocument {
    std::string heading;
    Table table;
    std::vector<std::string> notes;
};
VerdictDocument verdict_document(const VerdictTable& table);

// Text (the default), Markdown, CSV (the table's rows), HTML (a page) or JSON (verdict_json).
std::string render_verdict(const VerdictTable& table, ReportFormat format);
std::string render_verdict(const VerdictTable& table);
// The verdict as a section of another HTML page (a heading, the table, the notes).
std::string verdict_html_section(const VerdictTable& table);
// The same as JSON: the analysis, then one object per comparison (nulls where no value).
nlohmann::json verdict_json(const VerdictTable& table);

} // namespace bb
