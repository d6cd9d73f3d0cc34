#include "stats/signed_rank.h"

#include "stats/log_scale.h"
#include "stats/normal.h"
#include "stats/null_distributions.h"
#include "stats/ranks.h"
#include "stats/sorted.h"

#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace bb::stats {

namespace {

struct SignedRankTest {
    double p_value = 1;
    bool exact = true;
};

// The test on the non-zero differences: T = Σ doubled ranks of |d| where d > 0.
SignedRankTest signed_rank_test(std::span<const double> differences) {
    std::vector<double> magnitudes;
    std::vector<bool> positive;
    for (double d : differences) {
        if (d != 0) {
            magnitudes.push_back(std::abs(d));
            positive.push_back(d > 0);
        }
    }
    if (magnitudes.empty()) {
        return {1, true};
    }
    const DoubledRanks ranks = doubled_ranks(magnitudes);
    long statistic = 0;
    for (size_t i = 0; i < magnitudes.size(); ++i) {
        statistic += positive[i] ? ranks.ranks[i] : 0;
    }
    const auto n = static_cast<double>(magnitudes.size());
    if (magnitudes.size() <= static_cast<size_t>(k_exact_pairs_signed)) {
        return {two_sided_p(doubled_signed_rank_null(ranks.ranks), statistic), true};
    }
    // Doubled T: mean n(n+1)/2, variance 4·[n(n+1)(2n+1)/24 − Σ(t³−t)/48], correction 1.
    const double variance = 4 * (n * (n + 1) * (2 * n + 1) / 24 - ranks.tie_correction() / 48);
    return {normal_two_sided_p(static_cast<double>(statistic), n * (n + 1) / 2, variance, 1),
            false};
}

std::vector<double> walsh_averages(std::span<const double> d) {
    std::vector<double> averages;
    averages.reserve(d.size() * (d.size() + 1) / 2);
    for (size_t i = 0; i < d.size(); ++i) {
        for (size_t j = i; j < d.size(); ++j) {
            averages.push_back((d[i] + d[j]) / 2);
        }
    }
    return averages;
}

struct WalshRank {
    size_t k = 0; // 1-based; 0: even [min, max] falls short
    double coverage = 0;
    bool exact = true;
};

// [w(k), w(M+1−k)] covers the centre of symmetry with 1 − 2·P(T ≤ k − 1), T untied.
WalshRank walsh_rank(size_t n, double level) {
    const size_t count = n * (n + 1) / 2;
    if (n > static_cast<size_t>(k_exact_pairs_signed)) {
        const auto big_n = static_cast<double>(n);
        const double sd = std::sqrt(big_n * (big_n + 1) * (2 * big_n + 1) / 24);
        const double z = normal_quantile(1 - (1 - level) / 2);
        const auto k =
            static_cast<size_t>(std::max(1.0, std::floor(static_cast<double>(count) / 2 - z * sd)));
        return {k, level, false};
    }
    std::vector<long> untied(n);
    for (size_t i = 0; i < n; ++i) {
        untied[i] = 2 * static_cast<long>(i + 1);
    }
    const auto null = doubled_signed_rank_null(untied); // indexed by 2T
    const ConfidenceRank rank =
        confidence_rank(static_cast<long>(count + 1) / 2, level,
                        [&null](long t) { return null[2 * static_cast<size_t>(t)]; });
    return {static_cast<size_t>(rank.k), rank.coverage, true};
}

} // namespace

Result signed_rank(std::span<const double> differences, double level) {
    Result result;
    result.method = std::string(k_method_signed_rank);
    result.n_a = static_cast<int>(differences.size());
    if (differences.empty()) {
        result.insufficient = "no pairs";
        return result;
    }
    const SignedRankTest test = signed_rank_test(differences);
    const WalshRank rank = walsh_rank(differences.size(), level);
    result.p_value = test.p_value;
    result.exact = test.exact && rank.exact;
    result.method += result.exact ? ", exact" : ", normal approximation (ties corrected)";
    result.confidence = rank.coverage;
    auto averages = walsh_averages(differences);
    result.estimate = median_in_place(averages);
    const size_t count = averages.size();
    if (rank.k == 0) {
        result.interval = {kth_smallest(averages, 0), kth_smallest(averages, count - 1)};
        result.insufficient = fmt::format(
            "{} pairs: no interval reaches {:.0f} % (all Walsh averages cover {:.1f} %)",
            differences.size(), 100 * level, 100 * rank.coverage);
        return result;
    }
    result.interval = {kth_smallest(averages, rank.k - 1), kth_smallest(averages, count - rank.k)};
    return result;
}

Result signed_rank_shift(std::span<const double> a, std::span<const double> b, double level) {
    if (a.size() != b.size()) {
        throw std::invalid_argument("signed_rank_shift: a and b must pair up");
    }
    std::vector<double> differences(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        differences[i] = b[i] - a[i];
    }
    Result result = signed_rank(differences, level);
    result.n_b = result.n_a;
    return result;
}

Result signed_rank_ratio(std::span<const double> a, std::span<const double> b, double level) {
    return ratio_of(a, b, k_method_signed_rank,
                    [level](std::span<const double> x, std::span<const double> y) {
                        return signed_rank_shift(x, y, level);
                    });
}

} // namespace bb::stats
