#include "report/histogram_view.h"

#include "stats/holm.h"
#include "store/metric_queries.h"
#include "util/did_you_mean.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace bb {

namespace {

// Each group's base group index (itself for a base group), by the rule in the header.
std::vector<size_t> base_groups(const std::vector<HistogramGroup>& groups,
                                const std::optional<std::string>& base) {
    std::vector<size_t> bases(groups.size(), 0);
    if (groups.empty() || groups.front().key.empty()) {
        return bases;
    }
    const auto last_is = [](const HistogramGroup& group, const std::string& value) {
        return group.key.back().label() == value;
    };
    const std::string value = base.value_or("stock");
    const bool present = std::any_of(groups.begin(), groups.end(),
                                     [&](const HistogramGroup& g) { return last_is(g, value); });
    if (!present) {
        if (base) {
            std::vector<std::string> values;
            for (const auto& group : groups) {
                const std::string shown = group.key.back().label();
                if (std::find(values.begin(), values.end(), shown) == values.end()) {
                    values.push_back(shown);
                }
            }
            throw Error(fmt::format("--base {}: no group has that value of its last --by axis; "
                                    "values there: {}",
                                    *base, fmt::join(values, ", ")));
        }
        return bases;
    }
    const auto same_but_last = [](const HistogramGroup& a, const HistogramGroup& b) {
        return std::equal(a.key.begin(), a.key.end() - 1, b.key.begin(), b.key.end() - 1);
    };
    for (size_t g = 0; g < groups.size(); ++g) {
        bases[g] = g; // no base at these values of the other axes: nothing to compare with
        for (size_t h = 0; h < groups.size(); ++h) {
            if (last_is(groups[h], value) && same_but_last(groups[g], groups[h])) {
                bases[g] = h;
                break;
            }
        }
    }
    return bases;
}

// The guest's exact percentile when it printed one for this boot, else the bucket estimate.
double boot_percentile(const std::unordered_map<long long, double>& exact, long long boot,
                       const Histogram& own, double q, bool& was_exact) {
    const auto found = exact.find(boot);
    was_exact = found != exact.end();
    return was_exact ? found->second : histogram_percentile(own, q);
}

void add_boot_percentiles(HistogramGroup& group, long long boot, const Histogram& own,
                          const BootPercentiles& percentiles) {
    bool exact_p50 = false;
    bool exact_p99 = false;
    const double p50 = boot_percentile(percentiles.p50, boot, own, 0.5, exact_p50);
    const double p99 = boot_percentile(percentiles.p99, boot, own, 0.99, exact_p99);
    if (std::isfinite(p50)) {
        group.boot_p50s.push_back(p50);
    }
    if (std::isfinite(p99)) {
        group.boot_p99s.push_back(p99);
    }
    group.exact_percentiles += exact_p50 && exact_p99 ? 1 : 0;
}

// Boot id → value of one metric (the first it printed), for the selected boots.
std::unordered_map<long long, double>
boot_metric(Database& db, const std::string& name,
            const std::unordered_map<long long, bool>& boots) {
    std::unordered_map<long long, double> values;
    for (const auto& row : metric_rows(db, name)) {
        if (boots.count(row.boot_id) != 0) {
            values.emplace(row.boot_id, row.value);
        }
    }
    return values;
}

} // namespace

namespace {
// Refused before any bucket is made (issue 32, item 7: --bucket-us 1 built millions of buckets
// before the row limit was checked, 0.1 ran out of memory): a width finer than the stored
// buckets would spread each stored count evenly over sub-buckets it was never measured in, and
// a width that makes more rows than a histogram shows is said at once.
void check_bucket_width(const std::string& name, double width, bool asked, double stored_step,
                        const std::vector<StoredBucket>& stored) {
    // Relative slack: stored steps are doubles from µs conversions (10000 may read 9999.9999).
    if (asked && stored_step > 0 && width < stored_step * (1 - 1e-9)) {
        throw Error(fmt::format("--bucket-us {:g}: histogram {} was stored in buckets of {:g}; a "
                                "finer width would invent resolution (use {:g} or a multiple)",
                                width, name, stored_step, stored_step));
    }
    double lowest = std::numeric_limits<double>::infinity();
    double highest = -lowest;
    for (const StoredBucket& bucket : stored) {
        if (bucket.count > 0 && std::isfinite(bucket.lo) && std::isfinite(bucket.hi)) {
            lowest = std::min(lowest, bucket.lo);
            highest = std::max(highest, bucket.hi);
        }
    }
    if (lowest <= highest &&
        (highest - lowest) / width > static_cast<double>(k_max_histogram_rows)) {
        throw Error(fmt::format("histogram {}: buckets of {:g} from {:g} to {:g} are more than {} "
                                "rows; pick a wider --bucket-us",
                                name, width, lowest, highest, k_max_histogram_rows));
    }
}
} // namespace

namespace {
// The shifts of one percentile answer one question per group: Holm over them, as the verdict
// of a declared analysis does over its comparisons, so the two agree where they ask the same.
void adjust_family(std::vector<MedianShift>& shifts, Comparison MedianShift::*member,
                   double alpha) {
    std::vector<double> p_values;
    for (const auto& shift : shifts) {
        p_values.push_back((shift.*member).p_value);
    }
    const std::vector<double> adjusted = stats::holm_adjust(p_values);
    for (size_t i = 0; i < shifts.size(); ++i) {
        Comparison& c = shifts[i].*member;
        c.p_adjusted = adjusted[i];
        if (c.insufficient.empty()) {
            c.verdict = decide_verdict(c, c.p_adjusted, alpha, 0);
        }
    }
}
} // namespace

HistogramView build_histogram_view(const SampleSet& boots, const BootHistograms& histograms,
                                   const std::string& name, std::optional<double> bucket_width,
                                   const EstimateOptions& options,
                                   const std::optional<std::string>& base,
                                   const BootPercentiles& percentiles) {
    HistogramView view;
    view.name = name;
    view.axes = boots.axes;
    std::vector<StoredBucket> all;
    for (const auto& [boot, buckets] : histograms) {
        all.insert(all.end(), buckets.begin(), buckets.end());
    }
    const double stored_step = stored_bucket_step(all);
    view.width = bucket_width.value_or(stored_step);
    if (!(view.width > 0) || !std::isfinite(view.width)) {
        view.width = 1; // nothing stored to go by: any width shows the (empty) histograms
    }
    check_bucket_width(name, view.width, bucket_width.has_value(), stored_step, all);
    for (const SampleGroup& group : boots.groups) {
        HistogramGroup result;
        result.key = group.key;
        result.merged.width = view.width;
        for (const Sample& sample : group.samples) {
            if (sample.use != Sample::Use::Used) {
                ++result.excluded;
                continue;
            }
            const auto found = histograms.find(sample.boot_id);
            if (found == histograms.end() || found->second.empty()) {
                ++result.without;
                continue;
            }
            const Histogram own = rebucket(found->second, view.width);
            merge_into(result.merged, own);
            add_boot_percentiles(result, sample.boot_id, own, percentiles);
            ++result.used;
            result.used_failed += sample.outcome != "ok" ? 1 : 0;
            result.used_loaded += sample.outcome == "ok" && sample.loaded ? 1 : 0;
        }
        result.p50 = histogram_percentile(result.merged, 0.50);
        result.p90 = histogram_percentile(result.merged, 0.90);
        result.p99 = histogram_percentile(result.merged, 0.99);
        view.split_buckets += result.merged.split_buckets;
        view.groups.push_back(std::move(result));
    }
    const std::vector<size_t> bases = base_groups(view.groups, base);
    for (size_t g = 0; g < view.groups.size(); ++g) {
        if (bases[g] != g) {
            const HistogramGroup& a = view.groups[bases[g]];
            const HistogramGroup& b = view.groups[g];
            view.shifts.push_back({bases[g], g, compare_medians(a.boot_p50s, b.boot_p50s, options),
                                   compare_medians(a.boot_p99s, b.boot_p99s, options)});
        }
    }
    view.alpha = options.alpha;
    adjust_family(view.shifts, &MedianShift::comparison, options.alpha);
    adjust_family(view.shifts, &MedianShift::p99, options.alpha);
    return view;
}

std::vector<long long> shown_buckets(const HistogramView& view) {
    std::optional<long long> lowest;
    std::optional<long long> highest;
    for (const auto& group : view.groups) {
        for (const auto& [index, count] : group.merged.counts) {
            if (count > 0) {
                lowest = std::min(lowest.value_or(index), index);
                highest = std::max(highest.value_or(index), index);
            }
        }
    }
    std::vector<long long> indices;
    if (!lowest) {
        return indices;
    }
    if (*highest - *lowest >= k_max_histogram_rows) {
        throw Error(fmt::format("histogram {}: {} buckets of {:g} from {:g} to {:g} are too many "
                                "to show; pick a wider --bucket-us (at most {} buckets)",
                                view.name, *highest - *lowest + 1, view.width,
                                static_cast<double>(*lowest) * view.width,
                                static_cast<double>(*highest + 1) * view.width,
                                k_max_histogram_rows));
    }
    for (long long index = *lowest; index <= *highest; ++index) {
        indices.push_back(index);
    }
    return indices;
}

std::string bucket_label(const HistogramView& view, long long index) {
    const double lo = static_cast<double>(index) * view.width;
    const double hi = lo + view.width;
    if (view.width == std::round(view.width) && std::fabs(hi) < 1e15) {
        return fmt::format("{:.0f} - {:.0f}", lo, hi - 1);
    }
    return fmt::format("[{:g}, {:g})", lo, hi);
}

HistogramView query_histogram_view(Database& db, const HistogramViewQuery& query,
                                   const EstimateOptions& options) {
    if (query.bucket_width && !(*query.bucket_width > 0 && std::isfinite(*query.bucket_width))) {
        throw Error(fmt::format("--bucket-us {}: the bucket width must be a positive number of "
                                "microseconds, e.g. --bucket-us 10000",
                                *query.bucket_width));
    }
    const auto names = histogram_names(db);
    if (std::find(names.begin(), names.end(), query.name) == names.end()) {
        throw Error(fmt::format(
            "no histogram named '{}' in {}{}; histograms there: {} (a guest stores one by "
            "printing BOOTBENCH-HIST <name> <lo> <hi> <count> lines)",
            query.name, db.path().string(), did_you_mean_note(query.name, names),
            names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
    }
    SampleQuery selection = query.selection;
    // wall_seconds is never NULL: a boot's use then depends on its outcome and load alone.
    selection.metric = "wall_seconds";
    if (selection.by.empty()) {
        selection.by = {"variant"};
    }
    const SampleSet boots = query_samples(db, selection);

    std::unordered_map<long long, bool> selected;
    for (const auto& group : boots.groups) {
        for (const auto& sample : group.samples) {
            selected.emplace(sample.boot_id, true);
        }
    }
    BootHistograms histograms;
    for (const auto& row : histogram_rows(db, query.name)) {
        if (selected.count(row.boot_id) != 0) {
            histograms[row.boot_id].push_back({row.lo, row.hi, row.count});
        }
    }
    const BootPercentiles percentiles{boot_metric(db, query.name + "_p50", selected),
                                      boot_metric(db, query.name + "_p99", selected)};
    return build_histogram_view(boots, histograms, query.name, query.bucket_width, options,
                                query.base, percentiles);
}

} // namespace bb
