#pragma once
// What `bootbench bisect` prints: one line per step as it ends, and the answer.
#include "bisect/bisect_runner.h"

#include <nlohmann/json.hpp>
#include <string>

namespace bb {

// "step 2: prefix-2 vs prefix-0: +2.1 ms [-9.8 ms, 12.0 ms] (99.2 %) after 5+5 boots: like
// prefix-0, the change is after patch 2 (run 14)"
std::string bisect_step_line(const StepRun& step, const BisectReport& report);

// "first patch that changed boot_seconds: 0003-x.patch (patch 3 of 4): +302.1 ms [...]
// (median shift, prefix-2 → prefix-3), 30 boots in 3 steps", or "undecided: ...".
std::string bisect_answer(const BisectReport& report);

// The same as data (`bisect --json`): the series, every step with its shifts and verdict, the
// patch named (1-based, null when none) with its effect, and the answer line.
nlohmann::json bisect_json(const BisectReport& report);

} // namespace bb
