#pragma once
// A bisect step inside `bootbench run`'s pipeline: the round planner (round_planner.h) that
// books one more round of the step's prefixes until the step's decision rule (bisect_decision.h)
// decides or max_boots rounds are booted. It judges what the database holds, so a step
// resumed after Ctrl-C decides exactly as an uninterrupted one would.
#include "bisect/bisect_decision.h"
#include "experiment/analysis.h"
#include "pipeline/round_planner.h"
#include "store/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct StepJudge {
    // Cell keys in the step run's cell order: the older prefix, the newer (the middle one in a
    // middle step), and a middle step's newer end.
    std::vector<std::string> cells;
    Endpoint endpoint;
    BisectLimits limits;
};

struct StoredStep {
    StepVerdict verdict;
    int boots = 0; // every boot of the step's prefixes stored in the run (failed ones too)
};

// The step's verdict on run `run_id`'s stored boots: rounds are the boots of the prefix that
// has fewest; the values those of the used boots (ok, not loaded, parameters applied).
StoredStep judge_stored_step(Database& db, long long run_id, const StepJudge& judge);

class BisectRounds : public RoundPlanner {
  public:
    BisectRounds(Database& db, StepJudge judge, std::uint64_t seed)
        : m_db(db), m_judge(std::move(judge)), m_seed(seed) {}

    std::vector<SampleRef> next_round(long long run_id,
                                      const std::function<void(const std::string&)>& note) override;

  private:
    Database& m_db;
    StepJudge m_judge;
    std::uint64_t m_seed;
};

} // namespace bb
