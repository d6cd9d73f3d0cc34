#include "report/per_item_view.h"

#include "stats/geomean_endpoint.h"
#include "stats/sorted.h"
#include "store/metric_queries.h"
#include "util/did_you_mean.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <stdexcept>

namespace bb {

namespace {

const SampleGroup* find_group(const SampleSet& set, const AxisValue& value) {
    for (const auto& group : set.groups) {
        if (group.key.front() == value) {
            return &group;
        }
    }
    return nullptr;
}

const std::vector<double> k_no_values;

// Boot id → its values of the endpoint's items, in item order (NaN where it has none).
using BootItems = std::map<long long, std::vector<double>>;

void add_item(BootItems& boots, const SampleGroup& group, size_t item, size_t items) {
    for (const Sample& sample : group.samples) {
        if (sample.use != Sample::Use::Used) {
            continue;
        }
        auto& values = boots.try_emplace(sample.boot_id, items, std::nan("")).first->second;
        values[item] = *sample.value;
    }
}

// Each complete boot's item values; boots missing an item are counted in `skipped`.
std::vector<std::vector<double>> complete_boots(const BootItems& boots, int& skipped) {
    std::vector<std::vector<double>> complete;
    for (const auto& [boot, values] : boots) {
        if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); })) {
            ++skipped;
        } else {
            complete.push_back(values);
        }
    }
    return complete;
}

// The endpoint over the items both groups have: per-boot geomeans, then B / A across boots.
void per_boot_geomean(const std::vector<std::pair<std::string, SampleSet>>& items,
                      const AxisValue& base, PerItemComparison& comparison) {
    std::vector<std::pair<const SampleGroup*, const SampleGroup*>> shared;
    for (const auto& [item, set] : items) {
        const SampleGroup* a = find_group(set, base);
        const SampleGroup* b = find_group(set, comparison.other);
        if (a && b && !a->values.empty() && !b->values.empty()) {
            shared.emplace_back(a, b);
        }
    }
    GeometricMean& g = comparison.geomean;
    g.items = static_cast<int>(shared.size());
    BootItems base_boots;
    BootItems other_boots;
    for (size_t i = 0; i < shared.size(); ++i) {
        add_item(base_boots, *shared[i].first, i, shared.size());
        add_item(other_boots, *shared[i].second, i, shared.size());
    }
    const auto a = complete_boots(base_boots, g.skipped);
    const auto b = complete_boots(other_boots, g.skipped);
    g.n_base = static_cast<int>(a.size());
    g.n_other = static_cast<int>(b.size());
    const stats::Result result = stats::compare_geomean_endpoint(a, b);
    g.value = result.estimate;
    g.ci = result.interval;
    g.coverage = result.confidence;
    g.p_value = result.p_value;
    g.insufficient = result.insufficient;
    comparison.base_geomean = stats::sorted_median_of(stats::boot_geomeans(a));
    comparison.other_geomean = stats::sorted_median_of(stats::boot_geomeans(b));
}

std::string display_list(const std::vector<AxisValue>& values) {
    std::string text;
    for (const auto& value : values) {
        text += (text.empty() ? "" : ", ") + value.label();
    }
    return text;
}

} // namespace

PerItemView build_per_item_view(const std::string& prefix,
                                const std::vector<std::pair<std::string, SampleSet>>& items,
                                const std::optional<std::string>& base,
                                const EstimateOptions& options) {
    PerItemView view;
    view.prefix = prefix;
    if (items.empty()) {
        return view;
    }
    view.axis = items.front().second.axes.front();
    view.unit = items.front().second.unit;
    view.seconds = items.front().second.seconds;

    // Every value of the axis that any item has, in the report's order.
    std::vector<AxisValue> values;
    for (const auto& [item, set] : items) {
        if (set.axes.size() != 1) {
            throw std::invalid_argument("build_per_item_view: group each item by one axis");
        }
        for (const auto& group : set.groups) {
            if (std::find(values.begin(), values.end(), group.key.front()) == values.end()) {
                values.push_back(group.key.front());
            }
        }
    }
    std::sort(values.begin(), values.end(), axis_value_less);
    const auto named = [&values](const std::string& name) {
        return std::find_if(values.begin(), values.end(),
                            [&name](const AxisValue& v) { return v.label() == name; });
    };
    auto base_value = values.begin();
    if (base) {
        base_value = named(*base);
        if (base_value == values.end()) {
            throw Error(fmt::format("--base {}: no {} of that name among the boots; {}s: {}", *base,
                                    view.axis, view.axis, display_list(values)));
        }
    } else if (named("stock") != values.end()) {
        base_value = named("stock");
    }
    if (base_value == values.end()) {
        return view;
    }
    view.base = *base_value;

    for (const AxisValue& other : values) {
        if (other == view.base) {
            continue;
        }
        PerItemComparison comparison;
        comparison.other = other;
        for (const auto& [item, set] : items) {
            const SampleGroup* a = find_group(set, view.base);
            const SampleGroup* b = find_group(set, other);
            ItemRow row;
            row.item = item;
            row.comparison =
                compare_medians(a ? a->values : k_no_values, b ? b->values : k_no_values, options);
            for (const SampleGroup* side : {a, b}) {
                row.used_failed += side ? side->used_failed : 0;
                row.used_loaded += side ? side->used_loaded : 0;
            }
            comparison.items.push_back(std::move(row));
        }
        per_boot_geomean(items, view.base, comparison);
        view.comparisons.push_back(std::move(comparison));
    }
    return view;
}

PerItemView query_per_item_view(Database& db, const PerItemQuery& query,
                                const EstimateOptions& options) {
    if (query.prefix.empty()) {
        throw Error("--items: give the prefix of the metrics, e.g. --items launch for "
                    "launch.camera, launch.browser, …");
    }
    if (query.selection.by.size() > 1) {
        throw Error(fmt::format("--by {}: the per-item view compares the groups of one axis "
                                "(e.g. --by variant)",
                                fmt::join(query.selection.by, ",")));
    }
    const std::string dotted = query.prefix + ".";
    const std::vector<std::string> metrics = metric_names_with_prefix(db, dotted);
    if (metrics.empty()) {
        const std::vector<std::string> known = metric_item_prefixes(db);
        throw Error(fmt::format(
            "--items {}: no metric named {}<item> in {}{}; prefixes there: {}", query.prefix,
            dotted, db.path().string(), did_you_mean_note(query.prefix, known),
            known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
    }
    std::vector<std::pair<std::string, SampleSet>> items;
    SampleQuery selection = query.selection;
    if (selection.by.empty()) {
        selection.by = {"variant"};
    }
    for (const auto& metric : metrics) {
        selection.metric = metric;
        items.emplace_back(metric.substr(dotted.size()), query_samples(db, selection));
    }
    return build_per_item_view(query.prefix, items, query.base, options);
}

} // namespace bb
