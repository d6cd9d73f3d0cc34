#pragma once
// Holm's step-down adjustment: controls the family-wise error rate at α over a family of
// tests whatever their dependence, and rejects at least what Bonferroni rejects.
#include <span>
#include <vector>

namespace bb::stats {

// Adjusted p-values in the input order: the i-th smallest p becomes max over j ≤ i of
// (m − j + 1)·p₍ⱼ₎, capped at 1. A NaN p (a comparison that could not be made) stays NaN but
// still counts in the family size m: the family is what was declared, not what answered.
std::vector<double> holm_adjust(std::span<const double> p_values);

} // namespace bb::stats
