#include "bisect/bisection.h"

#include <stdexcept>

namespace bb {

Bisection::Bisection(int patches) : m_patches(patches), m_hi(patches) {
    if (patches < 1) {
        throw std::invalid_argument("Bisection: a series has at least one patch");
    }
}

int max_steps(int patches) {
    int steps = 1;
    for (int range = patches; range > 1; range = (range + 1) / 2) {
        ++steps;
    }
    return steps;
}

std::optional<BisectStep> Bisection::next_step() const {
    if (m_undecided) {
        return std::nullopt;
    }
    if (m_steps.empty()) {
        return BisectStep{0, m_patches, -1};
    }
    if (m_hi - m_lo <= 1) {
        return std::nullopt;
    }
    return BisectStep{m_lo, m_lo + (m_hi - m_lo) / 2, m_hi};
}

void Bisection::record(const StepOutcome& outcome) {
    const auto expected = next_step();
    if (!expected || !(*expected == outcome.step) ||
        outcome.verdict.kind == StepVerdict::Kind::Continue) {
        throw std::logic_error("Bisection::record: not the outcome of the next step");
    }
    m_steps.push_back(outcome);
    switch (outcome.verdict.kind) {
    case StepVerdict::Kind::LikeOld:
        m_lo = outcome.step.newer;
        break;
    case StepVerdict::Kind::LikeNew:
        m_hi = outcome.step.newer;
        break;
    case StepVerdict::Kind::Undecided:
        m_undecided = true;
        break;
    case StepVerdict::Kind::Changed:
    case StepVerdict::Kind::Continue:
        break;
    }
}

bool Bisection::found() const {
    return !m_undecided && finished();
}

std::optional<PatchEffect> Bisection::effect() const {
    if (!found()) {
        return std::nullopt;
    }
    for (const auto& outcome : m_steps) {
        const BisectStep& s = outcome.step;
        if (s.older == m_hi - 1 && s.newer == m_hi) {
            return PatchEffect{&outcome, &outcome.verdict.shift, s.older, s.newer};
        }
        if (s.middle() && s.newer == m_hi - 1 && s.upper == m_hi) {
            return PatchEffect{&outcome, &outcome.verdict.upper_shift, s.newer, s.upper};
        }
    }
    throw std::logic_error("Bisection::effect: no step booted prefixes hi - 1 and hi");
}

const StepOutcome* Bisection::undecided_step() const {
    return m_undecided ? &m_steps.back() : nullptr;
}

} // namespace bb
