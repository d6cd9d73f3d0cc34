#include "report/boot_plan.h"

#include "experiment/matrix.h"
#include "report/endpoint_samples.h"
#include "report/statistics.h"
#include "stats/sorted.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

namespace bb {

PilotSpread pilot_spread(Database& db, long long run_id, const Endpoint& endpoint) {
    std::map<std::string, std::vector<double>> by_cell;
    std::vector<double> walls;
    for (const auto& boot : endpoint_boots(db, run_id, endpoint)) {
        if (boot.used && boot.value) {
            by_cell[boot.cell_key].push_back(*boot.value);
            walls.push_back(boot.wall_seconds);
        }
    }
    PilotSpread spread;
    std::vector<std::vector<double>> groups;
    for (const auto& [cell, values] : by_cell) {
        const double sigma = stats::mad_sigma_log(values);
        const bool all_finite = std::all_of(values.begin(), values.end(), [](double value) {
            return std::isfinite(value) && value > 0;
        });
        if (all_finite && std::isfinite(sigma)) {
            spread.cell_sigma.emplace_back(cell, sigma);
            spread.sigma = std::max(spread.sigma, sigma);
            groups.push_back(values);
        } else {
            // Said, never dropped silently (issue 48 item 14): one +inf sample left a cell out.
            spread.left_out.push_back(fmt::format(
                "{} ({} used boot{}{})", cell, values.size(), values.size() == 1 ? "" : "s",
                all_finite ? ": fewer than 2, or no spread" : ": a value not finite or not > 0"));
        }
    }
    spread.pooled_sigma = stats::pooled_sd_log(groups);
    if (std::isfinite(spread.pooled_sigma)) {
        spread.sigma = std::max(spread.sigma, spread.pooled_sigma);
    }
    if (spread.cell_sigma.empty()) {
        throw Error(fmt::format("pilot run {}: no cell has 2 used boots with a positive {}: "
                                "nothing to estimate the spread from",
                                run_id, endpoint.label()));
    }
    spread.median_wall_s = stats::sorted_median_of(walls);
    spread.boots = static_cast<int>(walls.size());
    return spread;
}

int family_size(const Experiment& experiment) {
    if (!experiment.analysis) {
        return 1;
    }
    const Analysis& analysis = *experiment.analysis;
    const int pairs = static_cast<int>(analysis.pairs.size());
    if (analysis.family == HolmFamily::Condition) {
        return pairs;
    }
    std::set<std::string> conditions;
    for (const auto& cell : expand_matrix(experiment)) {
        nlohmann::json others = cell.params;
        others.erase(analysis.axis);
        conditions.insert(others.dump());
    }
    return pairs * static_cast<int>(conditions.size());
}

BootPlan plan_boots(const PlanRequest& request) {
    BootPlan plan;
    const bool precision = request.half_width > 0;
    plan.alpha_per_test = precision ? request.alpha : request.alpha / std::max(request.family, 1);
    stats::SampleSizeOptions options;
    options.alpha = plan.alpha_per_test;
    options.power = request.power;
    options.paired = request.paired;
    plan.size =
        precision ? stats::plan_boots_for_half_width(request.sigma_log, request.half_width, options)
                  : stats::plan_boots_per_cell(request.sigma_log, 1 + request.effect, options);
    plan.wall_seconds = request.median_wall_s * request.cells * plan.size.boots_per_cell /
                        std::max(request.slots, 1);
    return plan;
}

} // namespace bb
