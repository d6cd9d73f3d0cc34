#include "report/per_item_view.h"

#include "experiment/did_you_mean.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
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

std::string display_list(const std::vector<AxisValue>& values) {
    std::string text;
    for (const auto& value : values) {
        text += (text.empty() ? "" : ", ") + value.display();
    }
    return text;
}

} // namespace

PerItemView build_per_item_view(const std::string& prefix,
                                const std::vector<std::pair<std::string, SampleSet>>& items,
                                const std::optional<std::string>& base,
                                const BootstrapOptions& options) {
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
                            [&name](const AxisValue& v) { return v.display() == name; });
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
        std::vector<double> ratios;
        double base_logs = 0;
        double other_logs = 0;
        for (const auto& [item, set] : items) {
            const SampleGroup* a = find_group(set, view.base);
            const SampleGroup* b = find_group(set, other);
            ItemRow row;
            row.item = item;
            row.comparison =
                compare_medians(a ? a->values : k_no_values, b ? b->values : k_no_values, options);
            const Comparison& c = row.comparison;
            if (c.median_a > 0 && c.median_b > 0 && std::isfinite(c.ratio)) {
                ratios.push_back(c.ratio);
                base_logs += std::log(c.median_a);
                other_logs += std::log(c.median_b);
            }
            comparison.items.push_back(std::move(row));
        }
        comparison.geomean = geometric_mean_ratio(ratios, options);
        if (!ratios.empty()) {
            const auto n = static_cast<double>(ratios.size());
            comparison.base_geomean = std::exp(base_logs / n);
            comparison.other_geomean = std::exp(other_logs / n);
        } else {
            comparison.base_geomean = comparison.other_geomean = std::nan("");
        }
        view.comparisons.push_back(std::move(comparison));
    }
    return view;
}

PerItemView query_per_item_view(Database& db, const PerItemQuery& query,
                                const BootstrapOptions& options) {
    if (query.prefix.empty()) {
        throw Error("--items: give the prefix of the metrics, e.g. --items launch for "
                    "launch.camera, launch.browser, …");
    }
    if (query.selection.by.size() > 1) {
        throw Error(fmt::format("--by {}: the per-item view compares the groups of one axis "
                                "(e.g. --by variant)",
                                fmt::join(query.selection.by, ",")));
    }
    // Prefix match with substr, not LIKE: '_' and '%' in a prefix are literal characters.
    const std::string dotted = query.prefix + ".";
    SQLite::Statement names(db.sql(), "SELECT DISTINCT name FROM metrics "
                                      "WHERE substr(name, 1, length(?1)) = ?1 ORDER BY name");
    names.bind(1, dotted);
    std::vector<std::string> metrics;
    while (names.executeStep()) {
        metrics.push_back(names.getColumn(0).getString());
    }
    if (metrics.empty()) {
        std::set<std::string> prefixes;
        SQLite::Statement all(db.sql(), "SELECT DISTINCT name FROM metrics WHERE instr(name, '.')");
        while (all.executeStep()) {
            const std::string name = all.getColumn(0).getString();
            prefixes.insert(name.substr(0, name.find('.')));
        }
        const std::vector<std::string> known(prefixes.begin(), prefixes.end());
        const auto guess = did_you_mean(query.prefix, known);
        throw Error(
            fmt::format("--items {}: no metric named {}<item> in {}{}; prefixes there: "
                        "{}",
                        query.prefix, dotted, db.path().string(),
                        guess ? fmt::format(" (did you mean '{}'?)", *guess) : "",
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
