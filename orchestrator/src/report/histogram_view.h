#pragma once
// The histogram view (like seed 002's two synchronize_rcu() latency histograms): for each group
// of boots, the sum of the boots' buckets of one named histogram re-bucketed to one width, its
// p50/p90/p99 for display, and — the boot being the unit — the shift of each boot's own p50 and
// p99 against the base group (Hodges–Lehmann with its exact Mann–Whitney interval and p).
// Computing only; view_renderer.h and html_report.h draw it.
#include "report/estimates.h"
#include "report/histogram.h"
#include "report/sample_query.h"
#include "store/database.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace bb {

struct HistogramViewQuery {
    // Which boots and how they group (by: default variant). The metric is not used: a boot is
    // used when its outcome is ok and its foreign load at most the limit, as in every report.
    SampleQuery selection;
    std::string name;                   // histogram name as the guest printed it
    std::optional<double> bucket_width; // none: the stored bucket step
    std::optional<std::string> base;    // see build_histogram_view
};

struct HistogramGroup {
    std::vector<AxisValue> key;
    int used = 0;        // used boots that have the histogram
    int without = 0;     // used boots that printed no bucket of it
    int excluded = 0;    // failed or foreign-loaded boots, never merged (unless --include-…)
    int used_failed = 0; // failed boots among `used` (--include-failed)
    int used_loaded = 0; // foreign-loaded boots among `used` (--include-loaded)
    Histogram merged;
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;
    // Each used boot's own p50 and p99: the guest's exact <name>_p50/_p99 metrics when it printed
    // them, else interpolated in the boot's own buckets. What the shifts compare.
    std::vector<double> boot_p50s;
    std::vector<double> boot_p99s;
    int exact_percentiles = 0; // boots whose percentiles came from the guest's metrics
};

// The shift of a group against its base group: A = the base group's per-boot p50s (p99s),
// B = this group's; Hodges–Lehmann shift with its exact Mann–Whitney interval and p.
struct MedianShift {
    size_t base = 0;
    size_t group = 0;
    Comparison comparison; // of the per-boot p50s
    Comparison p99;        // of the per-boot p99s
};

struct HistogramView {
    std::string name;
    std::vector<std::string> axes;
    double width = 0;
    std::vector<HistogramGroup> groups;
    std::vector<MedianShift> shifts; // one per group other than a base group
    int split_buckets = 0;           // stored buckets split across a boundary of `width`
    // The shifts' tests: each percentile's shifts are one family, Holm-adjusted, decided at α
    // (the level the estimates were asked for: a run's declared α when it declared one).
    double alpha = 0.05;
};

using BootHistograms = std::unordered_map<long long, std::vector<StoredBucket>>;
// The guest's own percentiles of the histogram, per boot (metrics <name>_p50 and <name>_p99).
struct BootPercentiles {
    std::unordered_map<long long, double> p50;
    std::unordered_map<long long, double> p99;
};

// Pure: `boots` says which boots there are, how they group and which are used; `histograms`
// holds each boot's stored buckets of the histogram.
//
// Median shifts compare like with like: each group against the group that has the same values
// of every grouping axis but the last, and `base` (default "stock" when some group has it) as
// the last one — with --by smp,variant, every variant against stock at the same smp. Without
// such a value every group is compared with the first. Throws Error for a `base` no group has.
HistogramView build_histogram_view(const SampleSet& boots, const BootHistograms& histograms,
                                   const std::string& name, std::optional<double> bucket_width,
                                   const EstimateOptions& options = {},
                                   const std::optional<std::string>& base = {},
                                   const BootPercentiles& percentiles = {});

// Reads the boots and their buckets; throws Error for an unknown histogram name (naming the
// stored ones) and for a width that is not a positive number.
HistogramView query_histogram_view(Database& db, const HistogramViewQuery& query,
                                   const EstimateOptions& options = {});

// The bucket indices a table or chart shows: every bucket from the lowest to the highest one
// holding a count in any group, so gaps stay visible. Throws Error when that is more than
// k_max_histogram_rows (a width far too fine for the data).
constexpr long long k_max_histogram_rows = 2000;
std::vector<long long> shown_buckets(const HistogramView& view);

// The label of bucket `index`: "10000 - 19999" for integer widths and edges (the kernel's own
// inclusive style, as in seed 002), "[0.5, 1)" otherwise.
std::string bucket_label(const HistogramView& view, long long index);

} // namespace bb
