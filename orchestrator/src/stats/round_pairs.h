#pragma once
// Pairing by round for the paired methods (signed_rank.h): the runner boots every cell once per
// round, so the boots of two cells from the same round share that round's host state, and
// their difference cancels it. Boots whose round has no partner are counted, not paired.
#include <utility>
#include <vector>

namespace bb::stats {

// (round, value) of one boot.
using RoundValue = std::pair<long long, double>;

struct RoundPairs {
    std::vector<double> a; // a[i] and b[i] ran in the same round, rounds in increasing order
    std::vector<double> b;
    int unpaired = 0; // boots of either side without a partner (or a second boot in a round)
};

RoundPairs pair_by_round(std::vector<RoundValue> a, std::vector<RoundValue> b);

} // namespace bb::stats
