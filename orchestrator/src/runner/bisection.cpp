#include "runner/bisection.h"

#include <stdexcept>

namespace bb {

Bisection::Bisection(int patches) : m_patches(patches), m_hi(patches) {
    if (patches < 1) {
        throw std::invalid_argument("Bisection: a series has at least one patch");
    }
}

std::optional<BisectStep> Bisection::next_step() const {
    if (m_undecided) {
        return std::nullopt;
    }
    if (m_steps.empty()) {
        return BisectStep{0, m_patches};
    }
    if (m_hi - m_lo <= 1) {
        return std::nullopt;
    }
    return BisectStep{m_lo, m_lo + (m_hi - m_lo) / 2};
}

void Bisection::record(const StepOutcome& outcome) {
    const auto expected = next_step();
    if (!expected || !(*expected == outcome.step) ||
        outcome.verdict.kind == StepVerdict::Kind::Continue) {
        throw std::logic_error("Bisection::record: not the outcome of the next step");
    }
    m_steps.push_back(outcome);
    switch (outcome.verdict.kind) {
    case StepVerdict::Kind::Changed:
        m_delta = outcome.verdict.shift.estimate;
        break;
    case StepVerdict::Kind::LikeOld:
        m_lo = outcome.step.newer;
        break;
    case StepVerdict::Kind::LikeNew:
        m_hi = outcome.step.newer;
        break;
    case StepVerdict::Kind::Undecided:
    case StepVerdict::Kind::Continue:
        m_undecided = true;
        break;
    }
}

bool Bisection::found() const {
    return !m_undecided && finished();
}

const StepOutcome* Bisection::effect_step() const {
    if (!found()) {
        return nullptr;
    }
    for (const auto& outcome : m_steps) {
        if (outcome.step == BisectStep{m_hi - 1, m_hi}) {
            return &outcome;
        }
    }
    return &m_steps.front();
}

const StepOutcome* Bisection::undecided_step() const {
    return m_undecided ? &m_steps.back() : nullptr;
}

} // namespace bb
