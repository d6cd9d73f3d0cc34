#pragma once
// Who plans a run's rounds after the first `repeats`: the scheduler asks whenever its queue runs
// dry and every lane is idle. Precision repeats (precision_repeats.h) go on until each cell's
// median is precise; a bisect step (bisect_rounds.h) until its two kernels are told apart. Both
// decide from what the database holds, so a resumed run decides as an uninterrupted one would.
#include "pipeline/sample_scheduler.h"

#include <functional>
#include <string>
#include <vector>

namespace bb {

class RoundPlanner {
  public:
    virtual ~RoundPlanner() = default;
    // The next round's samples (cell index, repeat index); empty: the run is done. `note`
    // says why a cell or the run stopped.
    virtual std::vector<SampleRef>
    next_round(long long run_id, const std::function<void(const std::string&)>& note) = 0;
};

} // namespace bb
