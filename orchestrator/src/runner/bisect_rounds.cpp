#include "runner/bisect_rounds.h"

#include "report/endpoint_samples.h"
#include "runner/sample_plan.h"
#include "store/boot_store.h"

#include <algorithm>
#include <random>

namespace bb {

StoredStep judge_stored_step(Database& db, long long run_id, const StepJudge& judge) {
    const auto older = endpoint_boots(db, run_id, judge.endpoint, judge.older_cell);
    const auto newer = endpoint_boots(db, run_id, judge.endpoint, judge.newer_cell);
    const int rounds = static_cast<int>(std::min(older.size(), newer.size()));
    const std::vector<double> older_values = used_values(older);
    const std::vector<double> newer_values = used_values(newer);
    StoredStep stored;
    stored.boots = static_cast<int>(older.size() + newer.size());
    stored.verdict =
        judge.series_shift
            ? judge_midpoint(older_values, newer_values, *judge.series_shift, rounds, judge.limits)
            : judge_endpoints(older_values, newer_values, rounds, judge.limits);
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
    const int older = next_free_repeat(stored, m_judge.older_cell);
    const int newer = next_free_repeat(stored, m_judge.newer_cell);
    // A round cut short by Ctrl-C left one prefix a boot ahead: the other catches up first.
    if (older <= newer) {
        round.emplace_back(0, older);
    }
    if (newer <= older) {
        round.emplace_back(1, newer);
    }
    // Which prefix boots first in a round is the seed's choice, so drift within rounds evens out.
    std::mt19937_64 engine(m_seed + stored.size());
    std::shuffle(round.begin(), round.end(), engine);
    return round;
}

} // namespace bb
