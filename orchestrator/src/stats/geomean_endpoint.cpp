#include "stats/geomean_endpoint.h"

#include "stats/signed_rank.h"
#include "stats/two_sample.h"

#include <cmath>
#include <stdexcept>

namespace bb::stats {

double boot_geomean(std::span<const double> items) {
    if (items.empty()) {
        return k_nan;
    }
    double sum_of_logs = 0;
    for (double item : items) {
        if (!std::isfinite(item) || item <= 0) {
            return k_nan;
        }
        sum_of_logs += std::log(item);
    }
    return std::exp(sum_of_logs / static_cast<double>(items.size()));
}

std::vector<double> boot_geomeans(const std::vector<std::vector<double>>& boots) {
    std::vector<double> geomeans;
    geomeans.reserve(boots.size());
    for (const auto& items : boots) {
        if (items.size() != boots.front().size()) {
            throw std::invalid_argument("boot_geomeans: boots with different item counts");
        }
        geomeans.push_back(boot_geomean(items));
    }
    return geomeans;
}

Result compare_geomean_endpoint(const std::vector<std::vector<double>>& a_boots,
                                const std::vector<std::vector<double>>& b_boots, double level) {
    Result result = hodges_lehmann_ratio(boot_geomeans(a_boots), boot_geomeans(b_boots), level);
    result.method = "per-boot geomean, " + result.method;
    return result;
}

Result compare_geomean_endpoint_paired(const std::vector<std::vector<double>>& a_boots,
                                       const std::vector<std::vector<double>>& b_boots,
                                       double level) {
    Result result = signed_rank_ratio(boot_geomeans(a_boots), boot_geomeans(b_boots), level);
    result.method = "per-boot geomean, " + result.method;
    return result;
}

} // namespace bb::stats
