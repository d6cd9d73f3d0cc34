#include "pipeline/precision_repeats.h"

#include "pipeline/precision_stop.h"
#include "pipeline/sample_plan.h"
#include "report/endpoint_samples.h"

#include <algorithm>
#include <fmt/format.h>
#include <random>

namespace bb {

std::vector<SampleRef>
PrecisionRepeats::next_round(long long run_id,
                             const std::function<void(const std::string&)>& note) {
    std::vector<SampleRef> round;
    if (!m_experiment.until) {
        return round;
    }
    const auto stored = m_store.stored_samples(run_id);
    for (size_t cell = 0; cell < m_cells.size(); ++cell) {
        if (m_stopped.count(cell) != 0) {
            continue;
        }
        const std::string& key = m_cells[cell].cell_key;
        const auto boots =
            endpoint_boots(m_store.database(), run_id, m_experiment.until->endpoint, key);
        const StopDecision decision =
            precision_stop(*m_experiment.until, m_experiment.repeats, m_experiment.max_repeats,
                           static_cast<int>(boots.size()), used_values(boots));
        if (!decision.stop) {
            round.emplace_back(cell, next_free_repeat(stored, key));
            continue;
        }
        m_stopped.insert(cell);
        m_store.record_cell_stop(run_id, {key, static_cast<int>(boots.size()), decision.reason});
        note(fmt::format("{}: {}", key, decision.reason));
    }
    // Shuffled like the planned rounds, so drift during the extra rounds spreads over the cells.
    std::mt19937_64 engine(m_seed + measured_count(stored));
    std::shuffle(round.begin(), round.end(), engine);
    return round;
}

} // namespace bb
