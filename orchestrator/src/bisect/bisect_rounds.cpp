#include "bisect/bisect_rounds.h"

#include "pipeline/sample_plan.h"
#include "report/endpoint_samples.h"
#include "store/boot_store.h"

#include <algorithm>
#include <random>

namespace bb {

StoredStep judge_stored_step(Database& db, long long run_id, const StepJudge& judge) {
    StoredStep stored;
    std::vector<std::vector<double>> values;
    int rounds = -1;
    for (const auto& cell : judge.cells) {
        const auto boots = endpoint_boots(db, run_id, judge.endpoint, cell);
        values.push_back(used_values(boots));
        stored.boots += static_cast<int>(boots.size());
        const int booted = static_cast<int>(boots.size());
        rounds = rounds < 0 ? booted : std::min(rounds, booted);
    }
    stored.verdict = values.size() == 3
                         ? judge_midpoint(values[0], values[1], values[2], rounds, judge.limits)
                         : judge_endpoints(values.at(0), values.at(1), rounds, judge.limits);
    return stored;
}

std::vector<SampleRef> BisectRounds::next_round(long long run_id,
                                                const std::function<void(const std::string&)>&) {
    std::vector<SampleRef> round;
    if (judge_stored_step(m_db, run_id, m_judge).verdict.kind != StepVerdict::Kind::Continue) {
        return round; // the bisect prints the step's verdict once its run has ended
    }
    BootStore store(m_db);
    const auto stored = store.stored_samples(run_id);
    std::vector<int> next;
    for (const auto& cell : m_judge.cells) {
        next.push_back(next_free_repeat(stored, cell));
    }
    // A round cut short by Ctrl-C left some prefixes a boot ahead: the others catch up first.
    const int behind = *std::min_element(next.begin(), next.end());
    for (size_t cell = 0; cell < next.size(); ++cell) {
        if (next[cell] == behind) {
            round.emplace_back(cell, behind);
        }
    }
    // Which prefix boots first in a round is the seed's choice, so drift within rounds evens out.
    std::mt19937_64 engine(m_seed + measured_count(stored));
    std::shuffle(round.begin(), round.end(), engine);
    return round;
}

} // namespace bb
