#include "stats/two_sample.h"

#include "stats/log_scale.h"
#include "stats/normal.h"
#include "stats/null_distributions.h"
#include "stats/ranks.h"
#include "stats/sorted.h"

#include <cmath>
#include <fmt/format.h>
#include <vector>

namespace bb::stats {

namespace {

// Beyond this many differences the estimate would need gigabytes; nobody boots that often.
constexpr double k_max_pairs = 5e7;

bool exact_sizes(size_t m, size_t n) {
    return static_cast<double>(m) * static_cast<double>(n) <= static_cast<double>(k_exact_pairs);
}

// Var(U) under the null with the ties correction, in units of U.
double u_variance(double m, double n, const DoubledRanks& ranks) {
    const double big_n = m + n;
    return m * n / 12 * ((big_n + 1) - ranks.tie_correction() / (big_n * (big_n - 1)));
}

std::vector<double> pairwise_differences(std::span<const double> a, std::span<const double> b) {
    std::vector<double> differences;
    differences.reserve(a.size() * b.size());
    for (double y : b) {
        for (double x : a) {
            differences.push_back(y - x);
        }
    }
    return differences;
}

// The rank k (1-based) such that [d(k), d(mn+1−k)] reaches `level`, and its coverage; k = 0
// when even [min, max] falls short.
struct IntervalRank {
    long k = 0;
    double coverage = 0;
    bool exact = true;
};

IntervalRank mann_whitney_rank(size_t m, size_t n, const DoubledRanks& ranks, double level) {
    const long pairs = static_cast<long>(m * n);
    if (!exact_sizes(m, n)) {
        const double z = normal_quantile(1 - (1 - level) / 2);
        const double sd =
            std::sqrt(u_variance(static_cast<double>(m), static_cast<double>(n), ranks));
        const long k =
            std::max(1L, static_cast<long>(std::floor(static_cast<double>(pairs) / 2 - z * sd)));
        return {k, level, false};
    }
    const auto& null = mann_whitney_null(static_cast<int>(m), static_cast<int>(n));
    const ConfidenceRank rank = confidence_rank(
        (pairs + 1) / 2, level, [&null](long u) { return null[static_cast<size_t>(u)]; });
    return {rank.k, rank.coverage, true};
}

} // namespace

RankTest mann_whitney_test(std::span<const double> a, std::span<const double> b) {
    std::vector<double> combined(a.begin(), a.end());
    combined.insert(combined.end(), b.begin(), b.end());
    const DoubledRanks ranks = doubled_ranks(combined);
    const size_t m = a.size();
    const size_t n = b.size();
    // The smaller group's doubled rank sum: the same test, a smaller count.
    const bool use_a = m <= n;
    const std::span<const long> all(ranks.ranks);
    const auto chosen = use_a ? all.first(m) : all.subspan(m);
    long rank_sum = 0;
    for (long rank : chosen) {
        rank_sum += rank;
    }
    const auto size = static_cast<long>(chosen.size());
    if (exact_sizes(m, n) && !ranks.has_ties) {
        const long u = (rank_sum - size * (size + 1)) / 2;
        return {two_sided_p(mann_whitney_null(static_cast<int>(m), static_cast<int>(n)), u), true};
    }
    if (exact_sizes(m, n) && doubled_rank_sum_is_cheap(ranks.ranks, static_cast<int>(size))) {
        return {two_sided_p(doubled_rank_sum_null(ranks.ranks, static_cast<int>(size)), rank_sum),
                true};
    }
    // Doubled U: mean m·n, variance 4·Var(U), continuity correction ½ in U = 1 doubled.
    const double doubled_u = static_cast<double>(rank_sum - size * (size + 1));
    const double variance = 4 * u_variance(static_cast<double>(m), static_cast<double>(n), ranks);
    return {normal_two_sided_p(doubled_u, static_cast<double>(m * n), variance, 1), false};
}

Result hodges_lehmann_shift(std::span<const double> a, std::span<const double> b, double level) {
    Result result;
    result.n_a = static_cast<int>(a.size());
    result.n_b = static_cast<int>(b.size());
    result.method = std::string(k_method_hodges_lehmann);
    if (a.empty() || b.empty()) {
        result.insufficient = "a group has no values";
        return result;
    }
    if (static_cast<double>(a.size()) * static_cast<double>(b.size()) > k_max_pairs) {
        result.insufficient =
            fmt::format("{} × {} differences are too many to hold", a.size(), b.size());
        return result;
    }
    const RankTest test = mann_whitney_test(a, b);
    std::vector<double> combined(a.begin(), a.end());
    combined.insert(combined.end(), b.begin(), b.end());
    const IntervalRank rank = mann_whitney_rank(a.size(), b.size(), doubled_ranks(combined), level);
    result.p_value = test.p_value;
    result.exact = test.exact && rank.exact;
    result.method += result.exact ? ", exact" : ", normal approximation (ties corrected)";
    result.confidence = rank.coverage;

    auto differences = pairwise_differences(a, b);
    result.estimate = median_in_place(differences);
    const auto pairs = differences.size();
    if (rank.k == 0) {
        result.interval = {kth_smallest(differences, 0), kth_smallest(differences, pairs - 1)};
        result.insufficient =
            fmt::format("{} vs {}: no interval reaches {:.0f} % (all differences cover {:.1f} %)",
                        a.size(), b.size(), 100 * level, 100 * rank.coverage);
        return result;
    }
    const auto k = static_cast<size_t>(rank.k);
    result.interval = {kth_smallest(differences, k - 1), kth_smallest(differences, pairs - k)};
    return result;
}

Result hodges_lehmann_ratio(std::span<const double> a, std::span<const double> b, double level) {
    return ratio_of(a, b, k_method_hodges_lehmann,
                    [level](std::span<const double> x, std::span<const double> y) {
                        return hodges_lehmann_shift(x, y, level);
                    });
}

} // namespace bb::stats
