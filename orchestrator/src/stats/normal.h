#pragma once
// The standard normal distribution, for the large-sample approximations (and BCa).
#include <boost/math/distributions/normal.hpp>

namespace bb::stats {

inline double normal_cdf(double z) {
    return boost::math::cdf(boost::math::normal_distribution<double>(), z);
}

inline double normal_quantile(double p) {
    return boost::math::quantile(boost::math::normal_distribution<double>(), p);
}

// Two-sided p-value of a statistic with mean `mean` and variance `variance`, with a
// continuity correction of `correction` (half a step of the statistic) towards the mean.
inline double normal_two_sided_p(double observed, double mean, double variance, double correction) {
    if (variance <= 0) {
        return 1;
    }
    const double distance = std::max(0.0, std::abs(observed - mean) - correction);
    return std::min(1.0, 2 * normal_cdf(-distance / std::sqrt(variance)));
}

} // namespace bb::stats
