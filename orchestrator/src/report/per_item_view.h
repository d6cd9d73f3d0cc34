#pragma once
// The per-item table (like seed 003's application start-up times): items are metrics named
// <prefix>.<item> (launch.camera, launch.browser, one value per boot each); for every item the
// median of the base group and of another group, their difference and relative difference,
// and first the per-boot geomean endpoint: each boot's geometric mean over the items, compared
// across boots (the boot is the unit: items of one boot share its noise). Computing only.
#include "report/estimates.h"
#include "report/sample_query.h"
#include "store/database.h"

#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bb {

struct PerItemQuery {
    SampleQuery selection; // experiment, runs, include_failed; by: one axis (default variant)
    std::string prefix;    // "launch" selects launch.*
    std::optional<std::string> base; // the base group's value; none: "stock" if present, else
                                     // the first value in sort order
};

// The per-boot geomean endpoint (stats/geomean_endpoint.h): B / A of the boots' geomeans over
// the items both groups have, by Hodges–Lehmann on the log scale with its exact interval.
struct GeometricMean {
    int items = 0;   // items in the endpoint
    int n_base = 0;  // base boots with every one of those items
    int n_other = 0; // other boots likewise
    int skipped = 0; // used boots missing one of the items (not in the endpoint)
    double value = std::numeric_limits<double>::quiet_NaN(); // B / A
    Interval ci;
    double coverage = std::numeric_limits<double>::quiet_NaN();
    double p_value = std::numeric_limits<double>::quiet_NaN();
    std::string insufficient;
};

struct ItemRow {
    std::string item;      // the metric name without "<prefix>."
    int used_failed = 0;   // failed boots among the used ones, both groups (--include-failed)
    int used_loaded = 0;   // loaded boots likewise (--include-loaded)
    Comparison comparison; // A = base, B = the other group: medians, B − A and B / A with CIs
};

// diff = other − base, diff % = (other / base − 1) · 100: negative is lower (faster for times).
struct PerItemComparison {
    AxisValue other;
    GeometricMean geomean;      // the per-boot geomean endpoint
    double base_geomean = 0;    // median of the base boots' geomeans
    double other_geomean = 0;   // … and of the other group's
    std::vector<ItemRow> items; // sorted by item name
};

struct PerItemView {
    std::string prefix;
    std::string axis;
    AxisValue base;
    std::string unit;
    bool seconds = false;
    std::vector<PerItemComparison> comparisons; // one per group other than the base
};

// Pure: one SampleSet per item, each grouped by the same single axis.
PerItemView build_per_item_view(const std::string& prefix,
                                const std::vector<std::pair<std::string, SampleSet>>& items,
                                const std::optional<std::string>& base,
                                const EstimateOptions& options = {});

// Lists the metrics named <prefix>.*, reads each grouped by the axis; throws Error when no
// metric has the prefix (naming the prefixes there are), or the base group does not exist.
PerItemView query_per_item_view(Database& db, const PerItemQuery& query,
                                const EstimateOptions& options = {});

} // namespace bb
