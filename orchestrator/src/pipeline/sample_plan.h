#pragma once
// The plan stage of a run (docs/architecture.md, "A sample's way"), pure: which samples a run
// boots now.
#include "experiment/matrix.h"
#include "pipeline/sample_scheduler.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bb {

// Every cell `repeats` times in the seed's order (schedule_order), minus the (cell key,
// repeat) pairs already stored: a resumed run boots only what is missing, in the same order.
std::vector<SampleRef> samples_to_boot(const std::vector<Cell>& cells, int repeats,
                                       std::uint64_t seed, bool shuffled,
                                       const std::set<std::pair<std::string, int>>& stored);

// Throws Error unless 0 <= warmup <= k_max_warmup: `run` and `boot` take it from callers other
// than their command lines (which check it too), e.g. a bisect's or a test's options.
void require_warmup_in_range(int warmup);

// `warmup` boots per cell to boot before `measured` (nothing when nothing is left to measure):
// round after round over the cells in the order of `measured`'s first appearance, each numbered
// with the cell's next free negative repeat (-1, -2, …), so a resume warms up again without
// touching what an earlier invocation stored. Never used by a statistic (store/sample_rule.h).
std::vector<SampleRef> warmup_samples(const std::vector<Cell>& cells, int warmup,
                                      const std::vector<SampleRef>& measured,
                                      const std::set<std::pair<std::string, int>>& stored);

// How many of `stored` are samples, not warm-ups: what seeds the order of a later round, so a
// resume that warmed up again shuffles its rounds as an uninterrupted run would.
size_t measured_count(const std::set<std::pair<std::string, int>>& stored);

// The smallest repeat index the cell `key` has not stored: gaps (an interrupted boot) first.
// Rounds planned after the first (precision repeats, bisect steps) number their samples so.
int next_free_repeat(const std::set<std::pair<std::string, int>>& stored, const std::string& key);

} // namespace bb
