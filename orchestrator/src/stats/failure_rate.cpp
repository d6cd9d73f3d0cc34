#include "stats/failure_rate.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace bb::stats {

namespace {
double log_choose(int n, int k) {
    return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}
} // namespace

double fisher_greater_p(int failed_a, int boots_a, int failed_b, int boots_b) {
    if (failed_a < 0 || failed_b < 0 || failed_a > boots_a || failed_b > boots_b) {
        throw std::invalid_argument("fisher_greater_p: failures must lie in [0, boots]");
    }
    const int failed = failed_a + failed_b;
    const int boots = boots_a + boots_b;
    const double log_total = log_choose(boots, failed);
    double p = 0;
    // B's failures range up to min(failed, boots_b); A must then hold the rest.
    for (int k = failed_b; k <= std::min(failed, boots_b); ++k) {
        if (failed - k <= boots_a) {
            p += std::exp(log_choose(boots_b, k) + log_choose(boots_a, failed - k) - log_total);
        }
    }
    return std::min(1.0, p);
}

bool fails_more(int failed_a, int boots_a, int failed_b, int boots_b, double alpha) {
    if (failed_b == 0) {
        return false;
    }
    return failed_a == 0 || fisher_greater_p(failed_a, boots_a, failed_b, boots_b) <= alpha;
}

} // namespace bb::stats
