#include "report/initcall_comparison.h"

#include "stats/benjamini_hochberg.h"
#include "stats/holm.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace bb {

namespace {
using InitcallKey = std::pair<std::string, std::string>; // name, module

// One boot's time in each initcall (an initcall run twice counts once, summed).
std::map<InitcallKey, double> per_initcall(const TracedBoot& boot) {
    std::map<InitcallKey, double> seconds;
    for (const auto& call : boot.initcalls) {
        seconds[{call.name, call.module}] += static_cast<double>(call.duration_us) * 1e-6;
    }
    return seconds;
}

struct Side {
    std::vector<std::map<InitcallKey, double>> boots;
    std::vector<double> kernel_init;
    std::vector<double> total;
    std::set<InitcallKey> ran;
};

Side side_of(const InitcallGroupInput& input) {
    Side side;
    for (const auto& boot : input.traced) {
        side.boots.push_back(per_initcall(boot));
        for (const auto& [key, seconds] : side.boots.back()) {
            side.ran.insert(key);
        }
        double sum = 0;
        for (const auto& call : boot.initcalls) {
            if (std::isnan(boot.kernel_init_s) || call.start_s < boot.kernel_init_s) {
                sum += static_cast<double>(call.duration_us) * 1e-6;
            }
        }
        side.total.push_back(sum);
        if (!std::isnan(boot.kernel_init_s)) {
            side.kernel_init.push_back(boot.kernel_init_s);
        }
    }
    return side;
}

// The initcall's time in each boot of a side; 0 in a boot that did not run it.
std::vector<double> durations(const Side& side, const InitcallKey& key) {
    std::vector<double> values;
    for (const auto& boot : side.boots) {
        const auto found = boot.find(key);
        values.push_back(found == boot.end() ? 0.0 : found->second);
    }
    return values;
}

void adjust(InitcallGroupShift& group, double alpha) {
    std::vector<double> p;
    for (const auto& shift : group.shifts) {
        p.push_back(shift.comparison.p_value);
    }
    const auto q = stats::benjamini_hochberg_adjust(p);
    const auto holm = stats::holm_adjust(p);
    for (size_t i = 0; i < group.shifts.size(); ++i) {
        InitcallShift& shift = group.shifts[i];
        shift.q = q[i];
        shift.holm = holm[i];
        shift.moved = shift.comparison.insufficient.empty() && shift.q <= alpha;
        if (shift.moved) {
            ++group.moved;
            group.moved_sum += shift.comparison.difference;
        }
    }
}

InitcallGroupShift compare_group(const InitcallGroupInput& input_a,
                                 const InitcallGroupInput& input_b,
                                 const EstimateOptions& options) {
    const Side a = side_of(input_a);
    const Side b = side_of(input_b);
    InitcallGroupShift group{.key = input_a.key,
                             .traced_a = static_cast<int>(input_a.traced.size()),
                             .traced_b = static_cast<int>(input_b.traced.size())};
    group.kernel_init = compare_medians(a.kernel_init, b.kernel_init, options);
    group.total = compare_medians(a.total, b.total, options);
    std::set<InitcallKey> keys = a.ran;
    keys.insert(b.ran.begin(), b.ran.end());
    for (const auto& key : keys) {
        InitcallShift shift{.name = key.first, .module = key.second};
        shift.only_in = !a.ran.contains(key) ? 'B' : !b.ran.contains(key) ? 'A' : 0;
        shift.comparison = compare_medians(durations(a, key), durations(b, key), options);
        group.shifts.push_back(std::move(shift));
    }
    group.tested = static_cast<int>(group.shifts.size());
    adjust(group, options.alpha);
    std::stable_sort(group.shifts.begin(), group.shifts.end(), [](const auto& x, const auto& y) {
        const double dx =
            std::isnan(x.comparison.difference) ? -1 : std::fabs(x.comparison.difference);
        const double dy =
            std::isnan(y.comparison.difference) ? -1 : std::fabs(y.comparison.difference);
        return dx > dy;
    });
    return group;
}
} // namespace

InitcallComparison compare_initcalls(const InitcallInputs& a, const InitcallInputs& b,
                                     const EstimateOptions& options) {
    InitcallComparison comparison{.axes = a.axes, .alpha = options.alpha};
    for (const auto& group_a : a.groups) {
        const auto match = std::find_if(b.groups.begin(), b.groups.end(), [&](const auto& g) {
            return !group_key_less(g.key, group_a.key) && !group_key_less(group_a.key, g.key);
        });
        if (match == b.groups.end() || group_a.traced.empty() || match->traced.empty()) {
            ++comparison.only_one_run;
            continue;
        }
        comparison.groups.push_back(compare_group(group_a, *match, options));
    }
    for (const auto& group_b : b.groups) {
        const bool in_a = std::any_of(a.groups.begin(), a.groups.end(), [&](const auto& g) {
            return !group_key_less(g.key, group_b.key) && !group_key_less(group_b.key, g.key);
        });
        comparison.only_one_run += in_a ? 0 : 1;
    }
    return comparison;
}

} // namespace bb
