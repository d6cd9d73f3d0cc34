#pragma once
// The samples of `bootbench report` and `bootbench compare`: the boots store/sample_selection.h
// selects, grouped by their axis values, each classified as used or why not (failed, loaded, no
// value), and the statistics over the used ones.
#include "report/estimates.h"
#include "report/statistics.h"
#include "store/database.h"
#include "store/run_queries.h"
#include "store/sample_selection.h"

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bb {

// "hz,variant" → {"hz", "variant"}; empty items and names a JSON path cannot quote are errors.
std::vector<std::string> parse_axes(std::string_view list);

// One selected boot (its row, store/sample_selection.h) and how the report's statistics use it;
// its axis values are its group's key, not repeated here.
struct Sample : SelectedBoot {
    enum class Use { Used, Failed, Loaded, NoValue };
    Use use = Use::Used;
};

std::string_view to_string(Sample::Use use);

struct SampleGroup {
    std::vector<AxisValue> key;  // one value per axis of the SampleSet
    std::vector<Sample> samples; // every matching boot, by boot id, used or not
    std::vector<double> values;  // the values of the used samples, in the same order
    int failed = 0;              // outcome other than ok, not used (see include_failed)
    int loaded = 0;              // ok but under foreign load, not used (see include_loaded)
    int no_value = 0;            // no value for the metric (the guest did not print it)
    int used_failed = 0;         // failed boots among the used ones (--include-failed)
    int used_loaded = 0;         // loaded boots among the used ones (--include-loaded)
};

struct SampleSet {
    std::string metric;
    std::string unit;     // "s" for the timing columns, the metrics table's unit otherwise
    bool seconds = false; // values are times in seconds: print them with automatic units
    std::vector<std::string> axes;
    std::vector<SampleGroup> groups; // sorted by key
    bool include_failed = false;
    bool include_loaded = false;
    int boots = 0;
    int used = 0;
    // What did not take ("param-not-applied: rcutree.x=1 (…)") → how many boots it spoiled.
    std::map<std::string, int> params_not_applied;
};

// Throws Error for an unknown experiment, run id, metric or axis (naming the known ones).
SampleSet query_samples(Database& db, const SampleQuery& query);

// "hz=250 variant=stock"; for the pseudo-axis "cell" just the cell key.
std::string group_label(const std::vector<std::string>& axes, const std::vector<AxisValue>& key);

// Per-group statistics for a report: descriptive summary and the median's order-statistic
// interval.
struct GroupStatistics {
    const SampleGroup* group = nullptr;
    Summary summary;
    MedianEstimate median;
};

std::vector<GroupStatistics> summarize_groups(const SampleSet& set,
                                              const EstimateOptions& options = {});

// Two sample sets grouped by the same axes, matched group by group (A before, B after).
struct GroupComparison {
    std::vector<AxisValue> key;
    const SampleGroup* a = nullptr; // null: the group exists only in B
    const SampleGroup* b = nullptr; // null: the group exists only in A
    Comparison comparison;
    // Failed boots (outcome other than ok) of all boots, per side: a result of their own.
    int failed_a = 0;
    int boots_a = 0;
    int failed_b = 0;
    int boots_b = 0;
    double failure_p = 1;    // Fisher's exact test, one-sided: B fails more often than A
    bool fails_more = false; // stats::fails_more: B failed where A did not, or more often
};

struct ComparisonSet {
    std::string metric;
    std::string unit;
    bool seconds = false;
    std::vector<std::string> axes;
    double threshold = 0; // fraction
    double alpha = 0.05;
    std::vector<GroupComparison> groups;
    // Descriptive only, no interval: the geometric mean of the groups' B/A ratios (groups are
    // different cells; a resampling interval over a handful of them would not hold its level).
    double geomean_ratio = std::numeric_limits<double>::quiet_NaN();
    int geomean_groups = 0;
    int faster = 0;
    int slower = 0;
    int no_change = 0;
    int insufficient = 0; // includes groups present on one side only
    int only_a = 0;
    int only_b = 0;
    int failing = 0; // groups in which B fails more (GroupComparison::fails_more)
};

// Each group in both sets: Hodges–Lehmann shift with its exact Mann–Whitney interval and p;
// the verdicts read the p-values Holm-adjusted over those groups (a compare is one family).
ComparisonSet compare_sample_sets(const SampleSet& a, const SampleSet& b,
                                  const EstimateOptions& options = {}, double threshold = 0);

} // namespace bb
