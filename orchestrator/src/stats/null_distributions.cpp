#include "stats/null_distributions.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>

namespace bb::stats {

namespace {

std::vector<double> normalized(std::vector<double> counts) {
    const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
    for (double& count : counts) {
        count /= total;
    }
    return counts;
}

// Counts orders of m x's and n y's by U. Values are placed in increasing order; an x placed
// after b y's adds b pairs. ways[k][u]: orders of the first t values with k x's and sum u.
std::vector<double> count_mann_whitney(int m, int n) {
    const size_t pairs = static_cast<size_t>(m) * static_cast<size_t>(n);
    std::vector<std::vector<double>> ways(static_cast<size_t>(m) + 1,
                                          std::vector<double>(pairs + 1, 0.0));
    ways[0][0] = 1;
    for (int t = 0; t < m + n; ++t) {
        // k downwards so that the x placed at t is counted once; a y placed keeps ways[k].
        for (int k = std::min(t, m - 1); k >= 0; --k) {
            const int ys_before = t - k;
            if (ys_before > n) {
                continue; // more y's than there are: no such order
            }
            auto& from = ways[static_cast<size_t>(k)];
            auto& to = ways[static_cast<size_t>(k) + 1];
            for (size_t u = 0; u + static_cast<size_t>(ys_before) <= pairs; ++u) {
                to[u + static_cast<size_t>(ys_before)] += from[u];
            }
        }
    }
    return normalized(std::move(ways[static_cast<size_t>(m)]));
}

} // namespace

const std::vector<double>& mann_whitney_null(int m, int n) {
    if (m < 1 || n < 1 || static_cast<long>(m) * n > k_exact_pairs) {
        throw std::invalid_argument("mann_whitney_null: sizes outside the exact range");
    }
    // U's distribution is the same for (m, n) and (n, m): cache one.
    const auto key = std::minmax(m, n);
    static std::mutex mutex;
    static std::map<std::pair<int, int>, std::vector<double>> cache;
    const std::lock_guard lock(mutex);
    auto it = cache.find(key);
    if (it == cache.end()) {
        it = cache.emplace(key, count_mann_whitney(key.first, key.second)).first;
    }
    return it->second;
}

bool doubled_rank_sum_is_cheap(std::span<const long> ranks, int chosen) {
    const double range = 2.0 * static_cast<double>(ranks.size()) * static_cast<double>(chosen);
    return static_cast<double>(ranks.size()) * chosen * range <= 5e7;
}

std::vector<double> doubled_rank_sum_null(std::span<const long> ranks, int chosen) {
    std::vector<long> sorted(ranks.begin(), ranks.end());
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const long max_sum = std::accumulate(sorted.begin(), sorted.begin() + chosen, 0L);
    const auto width = static_cast<size_t>(max_sum) + 1;
    std::vector<std::vector<double>> ways(static_cast<size_t>(chosen) + 1,
                                          std::vector<double>(width, 0.0));
    ways[0][0] = 1;
    // Ranks in decreasing order: k of the first ranks sum to at most the first k of them,
    // which bounds each row's loop (a third of the work of sweeping the whole width).
    std::vector<size_t> row_max(static_cast<size_t>(chosen) + 1, 0);
    for (size_t k = 1; k < row_max.size(); ++k) {
        row_max[k] = row_max[k - 1] + static_cast<size_t>(sorted[k - 1]);
    }
    int seen = 0;
    for (long rank : sorted) {
        ++seen;
        const auto step = static_cast<size_t>(rank);
        for (int k = std::min(seen, chosen); k >= 1; --k) {
            auto& from = ways[static_cast<size_t>(k) - 1];
            auto& to = ways[static_cast<size_t>(k)];
            for (size_t s = row_max[static_cast<size_t>(k)] + 1; s-- > step;) {
                to[s] += from[s - step];
            }
        }
    }
    return normalized(std::move(ways[static_cast<size_t>(chosen)]));
}

std::vector<double> doubled_signed_rank_null(std::span<const long> ranks) {
    const long total = std::accumulate(ranks.begin(), ranks.end(), 0L);
    std::vector<double> ways(static_cast<size_t>(total) + 1, 0.0);
    ways[0] = 1;
    for (long rank : ranks) {
        const auto step = static_cast<size_t>(rank);
        for (size_t s = ways.size(); s-- > step;) {
            ways[s] += ways[s - step];
        }
    }
    return normalized(std::move(ways));
}

double cdf_at(const std::vector<double>& distribution, long value) {
    if (value < 0) {
        return 0;
    }
    const auto end = std::min(distribution.size(), static_cast<size_t>(value) + 1);
    return std::min(1.0,
                    std::accumulate(distribution.begin(),
                                    distribution.begin() + static_cast<std::ptrdiff_t>(end), 0.0));
}

double two_sided_p(const std::vector<double>& distribution, long observed) {
    const double lower = cdf_at(distribution, observed);
    // The upper tail summed directly: 1 − cdf loses the small tail to cancellation.
    double upper = 0;
    for (auto s = static_cast<size_t>(std::max(0L, observed)); s < distribution.size(); ++s) {
        upper += distribution[s];
    }
    return std::min(1.0, 2 * std::min(lower, upper));
}

} // namespace bb::stats
