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

// The smallest repeat index the cell `key` has not stored: gaps (an interrupted boot) first.
// Rounds planned after the first (precision repeats, bisect steps) number their samples so.
int next_free_repeat(const std::set<std::pair<std::string, int>>& stored, const std::string& key);

} // namespace bb
