#pragma once
// The stopping rule of precision-based repeats (`repeats: {min, max, until}`, docs/experiments.md
// #repeats): a cell gets another round until the order-statistic interval of its endpoint's
// median is at most `ci_halfwidth` of the median wide on each side, after at least `min` and at
// most `max` rounds. It looks at the cell's own precision only — never at another cell or a
// test — so stopping on it cannot bias the verdict.
#include "experiment/experiment.h"

#include <span>
#include <string>

namespace bb {

struct StopDecision {
    bool stop = false;
    std::string reason; // "precision reached at n=8 (±1.3 %)", "max reached (n=20, ±4.1 %)"
};

// `rounds`: the cell's stored samples (failed and loaded boots count as rounds: they were
// booted); `used_values`: the endpoint of the cell's used boots.
StopDecision precision_stop(const PrecisionTarget& target, int min_rounds, int max_rounds,
                            int rounds, std::span<const double> used_values);

} // namespace bb
