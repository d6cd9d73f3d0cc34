#include "stats/round_pairs.h"

#include <algorithm>

namespace bb::stats {

namespace {

// Sorted by round with one boot per round; the others are counted in `dropped`.
std::vector<RoundValue> one_per_round(std::vector<RoundValue> boots, int& dropped) {
    std::stable_sort(boots.begin(), boots.end(),
                     [](const RoundValue& x, const RoundValue& y) { return x.first < y.first; });
    const auto end = std::unique(boots.begin(), boots.end(),
                                 [](const auto& x, const auto& y) { return x.first == y.first; });
    dropped += static_cast<int>(boots.end() - end);
    boots.erase(end, boots.end());
    return boots;
}

} // namespace

RoundPairs pair_by_round(std::vector<RoundValue> a, std::vector<RoundValue> b) {
    RoundPairs pairs;
    a = one_per_round(std::move(a), pairs.unpaired);
    b = one_per_round(std::move(b), pairs.unpaired);
    size_t i = 0;
    size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].first < b[j].first) {
            ++i;
            ++pairs.unpaired;
        } else if (b[j].first < a[i].first) {
            ++j;
            ++pairs.unpaired;
        } else {
            pairs.a.push_back(a[i++].second);
            pairs.b.push_back(b[j++].second);
        }
    }
    pairs.unpaired += static_cast<int>((a.size() - i) + (b.size() - j));
    return pairs;
}

} // namespace bb::stats
