#pragma once
// Jonckheere–Terpstra test for a monotone trend across ordered groups (e.g. a parameter's
// values in increasing order). J = Σ over group pairs g < h of #(x_g < x_h) + ½·#(x_g = x_h).
// Two-sided: a trend either way. The estimate is J; there is no interval.
//
// Without ties J's null distribution is the q-multinomial coefficient, i.e. the convolution
// of the Mann–Whitney distributions of (n₁, n₂+…+n_k), (n₂, n₃+…+n_k), …: exact. With ties
// and up to k_permutation_limit values: a Monte Carlo permutation p-value with a fixed seed,
// (1 + hits) / (1 + draws) (stats/permutation_p.h), which never falls below the exact one in
// expectation. Larger: normal approximation with the ties-corrected variance (Hollander &
// Wolfe).
#include "stats/permutation_p.h"
#include "stats/result.h"

#include <vector>

namespace bb::stats {

constexpr std::string_view k_method_jonckheere = "Jonckheere-Terpstra trend";
constexpr int k_permutation_limit = 200;

Result jonckheere_terpstra(const std::vector<std::vector<double>>& groups,
                           const PermutationOptions& options = {});

// J's mean when there is no trend: half the pairs across groups. J above it: values grow along
// the groups' order; below: they fall.
double jonckheere_null_mean(const std::vector<std::vector<double>>& groups);

} // namespace bb::stats
