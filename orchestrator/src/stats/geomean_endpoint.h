#pragma once
// The per-item geomean endpoint with the boot as the unit: each boot's geometric mean over its
// items, then those per-boot values compared across boots (Hodges–Lehmann ratio, or signed-rank
// when paired by round). Items of one boot share that boot's noise, so resampling items
// (treating 15 items as 15 independent observations) calls a null effect significant far
// more often than α; per-boot geomeans carry the shared noise into the comparison.
#include "stats/result.h"

#include <span>
#include <vector>

namespace bb::stats {

// One boot's geomean over its items; NaN when it has none or one is not finite and positive.
double boot_geomean(std::span<const double> items);

// Every boot's geomean. Boots must have the same number of items (the same item set, in the
// same order): a geomean over different items is a different quantity.
std::vector<double> boot_geomeans(const std::vector<std::vector<double>>& boots);

// B / A of the per-boot geomeans, independent groups.
Result compare_geomean_endpoint(const std::vector<std::vector<double>>& a_boots,
                                const std::vector<std::vector<double>>& b_boots,
                                double level = 0.95);

// The same paired by round: a_boots[i] and b_boots[i] ran in the same round.
Result compare_geomean_endpoint_paired(const std::vector<std::vector<double>>& a_boots,
                                       const std::vector<std::vector<double>>& b_boots,
                                       double level = 0.95);

} // namespace bb::stats
