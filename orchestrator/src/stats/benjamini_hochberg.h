#pragma once
// Benjamini–Hochberg's step-up adjustment: controls the false discovery rate (the expected
// share of false findings among the findings) at α over m tests that are independent or
// positively dependent — the family of hundreds of initcalls of `compare --initcalls`, where
// Holm's family-wise control would find only the largest shifts.
#include <span>
#include <vector>

namespace bb::stats {

// q-values in the input order: the i-th smallest p becomes min over j ≥ i of m·p₍ⱼ₎ / j,
// capped at 1; a test is a finding at FDR α when its q ≤ α. A NaN p (a test that could not be
// made) stays NaN and still counts in m, as in holm_adjust.
std::vector<double> benjamini_hochberg_adjust(std::span<const double> p_values);

} // namespace bb::stats
