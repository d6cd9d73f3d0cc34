#pragma once
// Failed boots are a result: a kernel that panics on every boot has no boot time to compare,
// and must not pass as "insufficient data". Fisher's exact test of the failure rates, one-sided.
namespace bb::stats {

// P(B's failures >= failed_b) when A's and B's boots fail alike: the hypergeometric tail with
// the margins fixed (failed_a + failed_b failures among boots_a + boots_b boots). 1 when B
// failed no boot. Requires 0 <= failed <= boots on each side.
double fisher_greater_p(int failed_a, int boots_a, int failed_b, int boots_b);

// The decision `compare` and its JUnit report make: B failed boots where A failed none, or B's
// failure rate is higher at α by the exact test.
bool fails_more(int failed_a, int boots_a, int failed_b, int boots_b, double alpha);

} // namespace bb::stats
