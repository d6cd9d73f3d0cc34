#include "report/initcall_view.h"

#include "stats/sorted.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <utility>

namespace bb {

namespace {
using InitcallKey = std::pair<std::string, std::string>; // name, module

// Per boot: the initcalls that started before /init (the kernel's own boot; a boot module's
// init runs later, from /init), summed, and what the time to /init leaves outside them.
void add_totals(const TracedBoot& boot, std::vector<double>& totals, std::vector<double>& kernel,
                std::vector<double>& outside) {
    double sum = 0;
    for (const auto& call : boot.initcalls) {
        if (std::isnan(boot.kernel_init_s) || call.start_s < boot.kernel_init_s) {
            sum += static_cast<double>(call.duration_us) * 1e-6;
        }
    }
    totals.push_back(sum);
    if (!std::isnan(boot.kernel_init_s)) {
        kernel.push_back(boot.kernel_init_s);
        outside.push_back(boot.kernel_init_s - sum);
    }
}

// Each initcall's durations, one per boot that ran it (an initcall a boot ran twice, such as a
// module loaded again, counts once with its summed time).
std::map<InitcallKey, std::vector<double>> durations_by_initcall(const InitcallGroupInput& input) {
    std::map<InitcallKey, std::vector<double>> durations;
    for (const auto& boot : input.traced) {
        std::map<InitcallKey, double> per_boot;
        for (const auto& call : boot.initcalls) {
            per_boot[{call.name, call.module}] += static_cast<double>(call.duration_us) * 1e-6;
        }
        for (const auto& [key, seconds] : per_boot) {
            durations[key].push_back(seconds);
        }
    }
    return durations;
}

// Each initcall's start on the kernel's clock, one per boot that ran it (its first call).
std::map<InitcallKey, std::vector<double>> starts_by_initcall(const InitcallGroupInput& input) {
    std::map<InitcallKey, std::vector<double>> starts;
    for (const auto& boot : input.traced) {
        std::map<InitcallKey, double> first;
        for (const auto& call : boot.initcalls) {
            first.emplace(InitcallKey{call.name, call.module}, call.start_s);
        }
        for (const auto& [key, at] : first) {
            starts[key].push_back(at);
        }
    }
    return starts;
}

InitcallGroup build_group(const InitcallGroupInput& input, int top,
                          const EstimateOptions& options) {
    InitcallGroup group{.key = input.key,
                        .used = input.used,
                        .traced = static_cast<int>(input.traced.size()),
                        .untraced = input.untraced,
                        .wrapped = input.wrapped,
                        .cut = input.cut,
                        .empty = input.empty};
    std::vector<double> totals;
    std::vector<double> kernel;
    std::vector<double> outside;
    for (const auto& boot : input.traced) {
        add_totals(boot, totals, kernel, outside);
    }
    group.kernel_init = median_estimate(kernel, options);
    group.total = median_estimate(totals, options);
    group.outside = median_estimate(outside, options);
    const auto durations = durations_by_initcall(input);
    const auto starts = starts_by_initcall(input);
    group.distinct = static_cast<int>(durations.size());
    for (const auto& [key, values] : durations) {
        InitcallRow row{.name = key.first, .module = key.second};
        row.duration = median_estimate(values, options);
        row.share = row.duration.median / group.kernel_init.median;
        row.start = stats::sorted_median_of(starts.at(key));
        group.rows.push_back(std::move(row));
    }
    // Longest first; equal medians by name, so the order never depends on the map's.
    std::sort(group.rows.begin(), group.rows.end(), [](const auto& a, const auto& b) {
        if (a.duration.median != b.duration.median) {
            return a.duration.median > b.duration.median;
        }
        return std::tie(a.name, a.module) < std::tie(b.name, b.module);
    });
    if (group.rows.size() > static_cast<size_t>(top)) {
        group.rows.resize(static_cast<size_t>(top));
    }
    return group;
}

bool has_initcall_tables(Database& db) {
    SQLite::Statement query(db.sql(), "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND "
                                      "name = 'boot_initcalls'");
    return query.executeStep();
}

// One used boot's trace into its group's input.
void read_trace(Database& db, long long boot_id, InitcallGroupInput& input) {
    SQLite::Statement boot(db.sql(), "SELECT initcall_trace, kernel_init_seconds FROM boots "
                                     "WHERE id = ?");
    boot.bind(1, static_cast<int64_t>(boot_id));
    if (!boot.executeStep() || boot.getColumn(0).isNull()) {
        ++input.untraced;
        return;
    }
    const std::string state = boot.getColumn(0).getString();
    if (state != "complete") {
        ++(state == "wrapped" ? input.wrapped : state == "cut" ? input.cut : input.empty);
        return;
    }
    TracedBoot traced{.boot_id = boot_id};
    if (!boot.getColumn(1).isNull()) {
        traced.kernel_init_s = boot.getColumn(1).getDouble();
    }
    SQLite::Statement calls(db.sql(), "SELECT name, module, start_seconds, duration_us, "
                                      "return_value FROM boot_initcalls WHERE boot_id = ? "
                                      "ORDER BY seq");
    calls.bind(1, static_cast<int64_t>(boot_id));
    while (calls.executeStep()) {
        traced.initcalls.push_back({calls.getColumn(0).getString(), calls.getColumn(1).getString(),
                                    calls.getColumn(2).getDouble(), calls.getColumn(3).getInt64(),
                                    calls.getColumn(4).getInt()});
    }
    input.traced.push_back(std::move(traced));
}

std::string untraced_reason(const std::vector<InitcallGroupInput>& inputs) {
    int used = 0;
    int untraced = 0;
    int spoiled = 0;
    for (const auto& input : inputs) {
        used += input.used;
        untraced += input.untraced;
        spoiled += input.wrapped + input.cut + input.empty;
    }
    return fmt::format("of {} used boots, {} ran without initcall_debug and {} have an incomplete "
                       "trace (a wrapped ring buffer, a cut dump or no initcall); add `trace: "
                       "initcalls` to the experiment (docs/experiments.md#trace) or initcall_debug "
                       "to the kernel command line",
                       used, untraced, spoiled);
}
} // namespace

InitcallView build_initcall_view(const std::vector<std::string>& axes,
                                 const std::vector<InitcallGroupInput>& groups, int top,
                                 const EstimateOptions& options) {
    InitcallView view{.axes = axes, .top = top};
    for (const auto& input : groups) {
        view.groups.push_back(build_group(input, top, options));
    }
    return view;
}

InitcallInputs query_initcall_inputs(Database& db, const SampleQuery& query) {
    if (!has_initcall_tables(db)) {
        throw Error(fmt::format("{} holds no initcall traces: they are stored from schema 13 on, "
                                "by boots with `trace: initcalls` (docs/experiments.md#trace)",
                                db.path().filename().string()));
    }
    const SampleSet set = query_samples(db, query);
    InitcallInputs inputs{.axes = set.axes};
    bool any = false;
    for (const auto& group : set.groups) {
        InitcallGroupInput input{.key = group.key};
        for (const auto& sample : group.samples) {
            if (sample.use == Sample::Use::Used) {
                ++input.used;
                read_trace(db, sample.boot_id, input);
            }
        }
        any = any || !input.traced.empty();
        inputs.groups.push_back(std::move(input));
    }
    if (!any) {
        throw Error(fmt::format("no used boot{} in {} has a complete initcall trace: {}",
                                query.run_ids.size() == 1
                                    ? fmt::format(" of run {}", query.run_ids.front())
                                    : std::string(),
                                db.path().filename().string(), untraced_reason(inputs.groups)));
    }
    return inputs;
}

InitcallView query_initcall_view(Database& db, const SampleQuery& query, int top,
                                 const EstimateOptions& options) {
    const InitcallInputs inputs = query_initcall_inputs(db, query);
    return build_initcall_view(inputs.axes, inputs.groups, top, options);
}

} // namespace bb
