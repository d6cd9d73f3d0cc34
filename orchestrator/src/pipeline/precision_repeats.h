#pragma once
// Precision-based repeats in the runner: the first `min` rounds are planned up front like plain
// repeats; whenever the queue runs dry, every cell that has not stopped is judged by the
// stopping rule (precision_stop.h) on what the database holds, and each cell that goes on gets
// one more round. Reading the database, not counters, makes resume work unchanged: a resumed
// run decides from everything stored so far.
#include "experiment/experiment.h"
#include "experiment/matrix.h"
#include "pipeline/round_planner.h"
#include "store/boot_store.h"

#include <cstdint>
#include <functional>
#include <set>
#include <utility>
#include <vector>

namespace bb {

class PrecisionRepeats : public RoundPlanner {
  public:
    PrecisionRepeats(const Experiment& experiment, const std::vector<Cell>& cells, BootStore& store,
                     std::uint64_t seed)
        : m_experiment(experiment), m_cells(cells), m_store(store), m_seed(seed) {}

    // The next round's samples (cell index, repeat index) of the cells that go on; records why
    // each other cell stopped (run_cells) and says so through `note`. Empty: the run is done.
    std::vector<SampleRef> next_round(long long run_id,
                                      const std::function<void(const std::string&)>& note) override;

  private:
    const Experiment& m_experiment;
    const std::vector<Cell>& m_cells;
    BootStore& m_store;
    std::uint64_t m_seed;
    std::set<size_t> m_stopped;
};

} // namespace bb
