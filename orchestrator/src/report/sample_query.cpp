#include "report/sample_query.h"

#include "report/group_merge.h"
#include "report/host_split.h"
#include "stats/failure_rate.h"
#include "stats/holm.h"
#include "stats/sorted.h"
#include "store/boot_params.h"
#include "util/did_you_mean.h"
#include "util/error.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace bb {

namespace {

// An axis nobody has is a typo: name the parameters the selected boots do have.
void check_axes_exist(const SampleSet& set) {
    for (size_t axis = 0; axis < set.axes.size(); ++axis) {
        const std::string& name = set.axes[axis];
        if (name == k_cell_axis || name == k_run_axis || name == k_host_axis) {
            continue;
        }
        const bool anyone =
            std::any_of(set.groups.begin(), set.groups.end(), [axis](const auto& g) {
                return g.key[axis].kind != AxisValue::Kind::Null;
            });
        if (anyone) {
            continue;
        }
        std::set<std::string> keys;
        for (const auto& group : set.groups) {
            if (const auto params = read_boot_params(group.samples.front().params_json)) {
                for (const auto& item : params->items()) {
                    keys.insert(item.key());
                }
            }
        }
        std::vector<std::string> known(keys.begin(), keys.end());
        known.emplace_back(k_cell_axis);
        known.emplace_back(k_run_axis);
        known.emplace_back(k_host_axis);
        throw Error(fmt::format("no selected boot has the parameter '{}'{}; axes to group by: {}",
                                name, did_you_mean_note(name, known), fmt::join(known, ", ")));
    }
}

} // namespace

SampleQuery split_by_host(Database& db, SampleQuery query) {
    if (std::find(query.by.begin(), query.by.end(), k_host_axis) != query.by.end()) {
        return query;
    }
    if (hosts_in_selection(db, query) > 1) {
        if (query.by.empty()) {
            query.by.emplace_back(k_cell_axis); // the default grouping, then the host
        }
        query.by.emplace_back(k_host_axis);
    }
    return query;
}

std::vector<std::string> lost_host_notes(Database& db, const SampleQuery& query) {
    std::vector<std::string> notes;
    for (const auto& lost : lost_hosts(db, query)) {
        notes.push_back(fmt::format("host {} was lost: {} sample(s) booted again elsewhere ({})",
                                    lost.host, lost.samples, lost.reason));
    }
    return notes;
}

std::vector<std::string> parse_axes(std::string_view list) {
    std::vector<std::string> axes;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        std::string_view item = list.substr(start, comma - start);
        while (!item.empty() && item.front() == ' ') {
            item.remove_prefix(1);
        }
        while (!item.empty() && item.back() == ' ') {
            item.remove_suffix(1);
        }
        if (item.empty()) {
            throw Error(fmt::format("--by '{}': empty axis name; separate axes with single "
                                    "commas, e.g. --by hz,variant",
                                    list));
        }
        require_quotable_axis(item);
        if (std::find(axes.begin(), axes.end(), item) != axes.end()) {
            throw Error(fmt::format("--by '{}': axis '{}' is given twice", list, item));
        }
        axes.emplace_back(item);
        start = comma + 1;
    }
    return axes;
}

std::string_view to_string(Sample::Use use) {
    switch (use) {
    case Sample::Use::Used:
        return "used";
    case Sample::Use::Failed:
        return "failed";
    case Sample::Use::Loaded:
        return "loaded";
    case Sample::Use::NoValue:
        return "no-value";
    }
    return "?";
}

namespace {

// A failed boot may still have a value (a hang after the marker keeps its time); it is counted
// as failed, and used only on request — loaded boots likewise, separately.
void add_sample(Sample sample, const SampleQuery& query, SampleGroup& group, SampleSet& set) {
    if (sample.outcome != "ok") {
        sample.use = sample.value && query.include_failed ? Sample::Use::Used : Sample::Use::Failed;
        group.used_failed += sample.use == Sample::Use::Used ? 1 : 0;
    } else if (sample.loaded) {
        sample.use = sample.value && query.include_loaded ? Sample::Use::Used : Sample::Use::Loaded;
        group.used_loaded += sample.use == Sample::Use::Used ? 1 : 0;
    } else {
        sample.use = sample.value ? Sample::Use::Used : Sample::Use::NoValue;
    }
    switch (sample.use) {
    case Sample::Use::Used:
        group.values.push_back(*sample.value);
        ++set.used;
        break;
    case Sample::Use::Failed:
        ++group.failed;
        break;
    case Sample::Use::Loaded:
        ++group.loaded;
        break;
    case Sample::Use::NoValue:
        ++group.no_value;
        break;
    }
    group.samples.push_back(std::move(sample));
    ++set.boots;
}

Sample sample_of(SelectedBoot& boot) {
    Sample sample;
    static_cast<SelectedBoot&>(sample) = std::move(boot);
    sample.key.clear(); // the group's key
    return sample;
}

struct GroupKeyLess {
    bool operator()(const std::vector<AxisValue>& a, const std::vector<AxisValue>& b) const {
        return group_key_less(a, b);
    }
};

// An --only axis none of whose values a selected boot has: named, with the nearest value and
// the values there are (a typo, `variant=stok`, is the common case).
void require_known_values(Database& db, const SampleQuery& query) {
    for (const auto& [axis, values] : query.only) {
        const std::vector<std::string> known = axis_values_selected(db, query, axis);
        const bool any_known = std::any_of(values.begin(), values.end(), [&](const auto& value) {
            return std::find(known.begin(), known.end(), value) != known.end();
        });
        if (any_known || values.empty()) {
            continue;
        }
        throw Error(fmt::format(
            "--only {}={}: no selected boot has {} {}{}; {}", axis, fmt::join(values, ","), axis,
            fmt::join(values, " or "), did_you_mean_note(values.front(), known),
            known.empty() ? fmt::format("no selected boot has {} at all", axis)
                          : fmt::format("its values: {}", fmt::join(known, ", "))));
    }
}

void require_a_match(Database& db, const SampleQuery& query, const SampleSet& set) {
    if (set.boots != 0 || query.only.empty()) {
        return;
    }
    require_known_values(db, query);
    std::vector<std::string> filters;
    for (const auto& [axis, values] : query.only) {
        filters.push_back(fmt::format("--only {}={}", axis, fmt::join(values, ",")));
    }
    throw Error(fmt::format("no selected boot matches {} (values are compared as text, "
                            "e.g. hz=250 variant=stock)",
                            fmt::join(filters, " ")));
}

} // namespace

SampleSet query_samples(Database& db, const SampleQuery& query) {
    SampleSelection selection = select_samples(db, query);
    SampleSet set;
    set.metric = query.metric;
    set.unit = selection.unit;
    set.seconds = selection.seconds;
    set.axes = selection.axes;
    set.include_failed = query.include_failed;
    set.include_loaded = query.include_loaded;
    // Groups come out sorted by key: the map's order is the report's.
    std::map<std::vector<AxisValue>, SampleGroup, GroupKeyLess> groups;
    for (auto& boot : selection.boots) {
        SampleGroup& group = groups[boot.key];
        if (boot.params_not_applied) {
            ++set.params_not_applied[*boot.params_not_applied];
        }
        add_sample(sample_of(boot), query, group, set);
    }
    for (auto& [key, group] : groups) {
        group.key = key;
        set.groups.push_back(std::move(group));
    }
    require_a_match(db, query, set);
    check_axes_exist(set);
    return set;
}

std::string group_label(const std::vector<std::string>& axes, const std::vector<AxisValue>& key) {
    if (axes.size() == 1 && axes.front() == k_cell_axis) {
        return key.front().label();
    }
    std::string label;
    for (size_t i = 0; i < axes.size() && i < key.size(); ++i) {
        label += fmt::format("{}{}={}", label.empty() ? "" : " ", axes[i], key[i].label());
    }
    return label;
}

std::vector<GroupStatistics> summarize_groups(const SampleSet& set,
                                              const EstimateOptions& options) {
    std::vector<GroupStatistics> statistics;
    statistics.reserve(set.groups.size());
    for (const auto& group : set.groups) {
        statistics.push_back(
            {&group, summarize(group.values), median_estimate(group.values, options)});
    }
    return statistics;
}

namespace {

// Holm over the groups compared, the verdicts from the adjusted p-values, then the tallies.
void decide_as_family(ComparisonSet& result, const EstimateOptions& options, double threshold) {
    std::vector<double> p_values;
    for (const auto& entry : result.groups) {
        if (entry.a && entry.b) {
            p_values.push_back(entry.comparison.p_value);
        }
    }
    const auto adjusted = stats::holm_adjust(p_values);
    size_t next = 0;
    double log_sum = 0;
    for (auto& entry : result.groups) {
        Comparison& c = entry.comparison;
        if (entry.a && entry.b) {
            c.p_adjusted = adjusted[next++];
            c.verdict = decide_verdict(c, c.p_adjusted, options.alpha, threshold);
        }
        switch (c.verdict) {
        case Comparison::Verdict::Faster:
            ++result.faster;
            break;
        case Comparison::Verdict::Slower:
            ++result.slower;
            break;
        case Comparison::Verdict::NoChange:
            ++result.no_change;
            break;
        case Comparison::Verdict::Insufficient:
            ++result.insufficient;
            break;
        }
        if (c.verdict != Comparison::Verdict::Insufficient && c.ratio > 0) {
            log_sum += std::log(c.ratio);
            ++result.geomean_groups;
        }
    }
    if (result.geomean_groups > 0) {
        result.geomean_ratio = std::exp(log_sum / result.geomean_groups);
    }
}

} // namespace

namespace {
// A group's failed boots on each side, and whether B fails more: a kernel that panics on every
// boot has no values, and must not pass as "insufficient data" (issue 48 item 6).
void count_failures(GroupComparison& entry, double alpha) {
    const auto failures = [](const SampleGroup* group) {
        return group ? group->failed + group->used_failed : 0;
    };
    const auto boots = [](const SampleGroup* group) {
        return group ? static_cast<int>(group->samples.size()) : 0;
    };
    entry.failed_a = failures(entry.a);
    entry.boots_a = boots(entry.a);
    entry.failed_b = failures(entry.b);
    entry.boots_b = boots(entry.b);
    entry.failure_p =
        stats::fisher_greater_p(entry.failed_a, entry.boots_a, entry.failed_b, entry.boots_b);
    entry.fails_more =
        stats::fails_more(entry.failed_a, entry.boots_a, entry.failed_b, entry.boots_b, alpha);
}
} // namespace

ComparisonSet compare_sample_sets(const SampleSet& a, const SampleSet& b,
                                  const EstimateOptions& options, double threshold) {
    if (a.axes != b.axes) {
        throw std::invalid_argument("compare_sample_sets: both sets must be grouped alike");
    }
    ComparisonSet result;
    result.metric = a.metric;
    result.unit = a.unit;
    result.seconds = a.seconds;
    result.axes = a.axes;
    result.threshold = threshold;
    result.alpha = options.alpha;
    merge_by_key(a.groups, b.groups, [&](const SampleGroup* in_a, const SampleGroup* in_b) {
        GroupComparison entry;
        entry.a = in_a;
        entry.b = in_b;
        entry.key = entry.a ? entry.a->key : entry.b->key;
        if (entry.a && entry.b) {
            entry.comparison =
                compare_medians(entry.a->values, entry.b->values, options, threshold);
        } else {
            // One side only: nothing to compare, but its median is still worth showing.
            Comparison& c = entry.comparison;
            const SampleGroup& present = entry.a ? *entry.a : *entry.b;
            const double median = stats::sorted_median_of(present.values);
            (entry.a ? c.n_a : c.n_b) = static_cast<int>(present.values.size());
            (entry.a ? c.median_a : c.median_b) = median;
            result.only_a += entry.a ? 1 : 0;
            result.only_b += entry.b ? 1 : 0;
        }
        count_failures(entry, options.alpha);
        result.failing += entry.fails_more ? 1 : 0;
        result.groups.push_back(std::move(entry));
    });
    decide_as_family(result, options, threshold);
    return result;
}

} // namespace bb
