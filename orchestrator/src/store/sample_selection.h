#pragma once
// The boots a report or comparison reads, selected in one indexed SQL statement: filters and
// JSON axes are bound as parameters, never formatted into the SQL. Which of them the statistics
// use is decided by report/sample_query.h from what this returns; whether a boot is loaded comes
// from the v_samples view, the SQL twin of store/sample_rule.h.
#include "store/axis_value.h"
#include "store/database.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bb {

// What to read. Every field is a filter or a choice; nothing here is ever formatted into SQL.
struct SampleQuery {
    std::string experiment;         // experiment name; empty: any
    std::vector<long long> run_ids; // empty: every run
    // Grouping axes: keys of boots.params_json ("hz", "variant",
    // "srcutree.srcu_max_nodelay_phase"), or the pseudo-axes "cell" (cell_key), "run" and
    // "host". Empty: one group per cell.
    std::vector<std::string> by;
    // --only AXIS=V1,V2: keep the boots whose value of each named axis (or pseudo-axis) is one
    // of these, compared as text ("250" matches the integer 250).
    std::vector<std::pair<std::string, std::vector<std::string>>> only;
    std::string metric = "boot_seconds"; // a timing column of boots, or a metrics-table name
    bool include_failed = false;         // use failed boots that have a value too
    bool include_loaded = false;         // use foreign-loaded boots too
};

// Pseudo-axes: boot columns rather than keys of params_json. The host is a boot's libvirt URI,
// else its hostname (boots stored before fleets: their run's host).
inline constexpr std::string_view k_cell_axis = "cell";
inline constexpr std::string_view k_run_axis = "run";
inline constexpr std::string_view k_host_axis = "host";

// SQLite's quoted JSON path label `$."a.b"` ends at the next quote and has no escape: throws
// Error for an axis name holding one.
void require_quotable_axis(std::string_view name);

// One selected boot with its value of the metric and of each grouping axis.
struct SelectedBoot {
    long long boot_id = 0;
    long long run_id = 0;
    std::string cell_key;
    std::string params_json;
    std::string outcome; // "param-not-applied" for an ok boot whose parameters did not take
    std::optional<double> foreign_load;
    std::optional<double> value;
    std::optional<std::string> params_not_applied;
    bool loaded = false;  // v_samples.loaded
    bool used = false;    // v_samples.used: ok, not loaded, parameters applied
    int repeat_index = 0; // the round: the runner boots every cell once per round
    double wall_seconds = 0;
    std::string host;           // libvirt URI, else hostname (before fleets: the run's host)
    std::vector<AxisValue> key; // one value per axis, in the order of SampleSelection::axes
};

struct SampleSelection {
    std::string unit;              // "s" for the timing columns, the metrics table's unit otherwise
    bool seconds = false;          // values are times in seconds
    std::vector<std::string> axes; // the query's, or {"cell"} when it names none
    std::vector<SelectedBoot> boots; // by boot id
};

// Throws Error for an unknown experiment, run id or metric (naming the known ones).
SampleSelection select_samples(Database& db, const SampleQuery& query);

// Every boot of a run, by boot id, with boot_seconds as its value and no grouping axis but
// "cell" (the run summary, a verdict's endpoint, plan's pilot check).
std::vector<SelectedBoot> run_boots(Database& db, long long run_id);

// The distinct values (as text, sorted) of `axis` or a pseudo-axis among the boots the query
// selects without its --only filters: what an --only value that matched nothing can be told.
std::vector<std::string> axis_values_selected(Database& db, SampleQuery query,
                                              std::string_view axis);
// How many hosts the selected boots ran on.
int hosts_in_selection(Database& db, const SampleQuery& query);

// Fleet hosts lost during the selection: the samples each left behind (stored as infra-error,
// booted again elsewhere) and the first reason.
struct LostHost {
    std::string host;
    int samples = 0;
    std::string reason;
};
std::vector<LostHost> lost_hosts(Database& db, const SampleQuery& query);

} // namespace bb
