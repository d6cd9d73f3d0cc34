#pragma once
#include "store/boot_record.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bb {

// hyperfine-style text for a series of boots of one kernel:
//   Time (mean ± σ):      6.123 s ±  0.101 s    [guest: 0.412 s ± 0.010 s]
//   Median:               6.100 s
//   Range (min … max):    6.012 s …  6.301 s    3 boots
//   Outcomes:             3 ok
// Only "ok" boots enter the statistics; the others are counted by outcome.
std::string render_boot_summary(const std::vector<BootRecord>& boots);

nlohmann::json boot_summary_json(const std::vector<BootRecord>& boots);

} // namespace bb
