#include "stats/jonckheere.h"

#include "stats/normal.h"
#include "stats/null_distributions.h"
#include "stats/ranks.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <utility>

namespace bb::stats {

namespace {

// Doubled J (ties count ½), so it stays an integer.
long doubled_statistic(const std::vector<std::vector<double>>& groups) {
    long doubled = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
        for (size_t h = g + 1; h < groups.size(); ++h) {
            for (double x : groups[g]) {
                for (double y : groups[h]) {
                    doubled += x < y ? 2 : (x == y ? 1 : 0);
                }
            }
        }
    }
    return doubled;
}

std::vector<double> convolve(const std::vector<double>& x, const std::vector<double>& y) {
    std::vector<double> out(x.size() + y.size() - 1, 0.0);
    for (size_t i = 0; i < x.size(); ++i) {
        for (size_t j = 0; j < y.size(); ++j) {
            out[i + j] += x[i] * y[j];
        }
    }
    return out;
}

// The untied null of J, or empty when a factor is too large to count exactly.
std::vector<double> count_untied_null(const std::vector<int>& sizes) {
    std::vector<double> null{1.0};
    int rest = 0;
    for (int size : sizes) {
        rest += size;
    }
    for (int size : sizes) {
        rest -= size;
        if (size == 0 || rest == 0) {
            continue;
        }
        if (static_cast<long>(size) * rest > k_exact_pairs) {
            return {};
        }
        null = convolve(null, mann_whitney_null(size, rest));
    }
    return null;
}

// Cached per list of group sizes: a trend report asks for the same sizes over and over.
const std::vector<double>& untied_null(const std::vector<int>& sizes) {
    static std::mutex mutex;
    static std::map<std::vector<int>, std::vector<double>> cache;
    const std::lock_guard lock(mutex);
    auto it = cache.find(sizes);
    if (it == cache.end()) {
        it = cache.emplace(sizes, count_untied_null(sizes)).first;
    }
    return it->second;
}

// Two-sided: an order counts when its J lies at least as far from the null mean as the observed.
double trend_permutation_p(const std::vector<std::vector<double>>& groups, double mean,
                           const PermutationOptions& options) {
    std::vector<double> pooled;
    for (const auto& group : groups) {
        pooled.insert(pooled.end(), group.begin(), group.end());
    }
    auto regrouped = groups;
    const auto distance = [&regrouped, mean](std::span<const double> order) {
        size_t next = 0;
        for (auto& group : regrouped) {
            for (double& value : group) {
                value = order[next++];
            }
        }
        return std::abs(static_cast<double>(doubled_statistic(regrouped)) - mean);
    };
    return permutation_p(std::move(pooled), distance, options);
}

// Var(J) with ties (Hollander & Wolfe, Nonparametric Statistical Methods), in units of J.
double tied_variance(const std::vector<int>& sizes, const DoubledRanks& ranks) {
    const auto big_n = static_cast<double>(ranks.ranks.size());
    auto sum_over = [](const auto& counts, auto term) {
        double sum = 0;
        for (int c : counts) {
            sum += term(static_cast<double>(c));
        }
        return sum;
    };
    const auto cubic = [](double x) { return x * (x - 1) * (2 * x + 5); };
    const auto falling3 = [](double x) { return x * (x - 1) * (x - 2); };
    const auto falling2 = [](double x) { return x * (x - 1); };
    return (cubic(big_n) - sum_over(sizes, cubic) - sum_over(ranks.tie_sizes, cubic)) / 72 +
           sum_over(sizes, falling3) * sum_over(ranks.tie_sizes, falling3) /
               (36 * falling3(big_n)) +
           sum_over(sizes, falling2) * sum_over(ranks.tie_sizes, falling2) / (8 * falling2(big_n));
}

} // namespace

Result jonckheere_terpstra(const std::vector<std::vector<double>>& groups,
                           const PermutationOptions& options) {
    Result result;
    result.method = std::string(k_method_jonckheere);
    std::vector<int> sizes;
    std::vector<double> pooled;
    for (const auto& group : groups) {
        sizes.push_back(static_cast<int>(group.size()));
        pooled.insert(pooled.end(), group.begin(), group.end());
    }
    result.n_a = static_cast<int>(pooled.size());
    const auto non_empty = std::count_if(sizes.begin(), sizes.end(), [](int s) { return s > 0; });
    if (non_empty < 2) {
        result.insufficient = "a trend needs at least two groups with values";
        return result;
    }
    const long observed = doubled_statistic(groups);
    result.estimate = static_cast<double>(observed) / 2;
    double pairs = 0; // Σ n_g·n_h: E(doubled J) = pairs
    for (size_t g = 0; g < sizes.size(); ++g) {
        for (size_t h = g + 1; h < sizes.size(); ++h) {
            pairs += static_cast<double>(sizes[g]) * sizes[h];
        }
    }
    const DoubledRanks ranks = doubled_ranks(pooled);
    if (!ranks.has_ties) {
        if (const auto& null = untied_null(sizes); !null.empty()) {
            result.method += ", exact";
            result.p_value = two_sided_p(null, observed / 2);
            return result;
        }
    } else if (result.n_a <= k_permutation_limit) {
        result.exact = false;
        result.method +=
            fmt::format(", permutation ({} draws, seed {})", options.draws, options.seed);
        result.p_value = trend_permutation_p(groups, pairs, options);
        return result;
    }
    result.exact = false;
    result.method += ", normal approximation (ties corrected)";
    result.p_value = normal_two_sided_p(static_cast<double>(observed) / 2, pairs / 2,
                                        tied_variance(sizes, ranks), 0.5);
    return result;
}

double jonckheere_null_mean(const std::vector<std::vector<double>>& groups) {
    double mean = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
        for (size_t h = g + 1; h < groups.size(); ++h) {
            mean += static_cast<double>(groups[g].size() * groups[h].size()) / 2;
        }
    }
    return mean;
}

} // namespace bb::stats
