#pragma once
// The bisection of a patch series, pure (docs/bisect.md): which two prefixes the next step
// compares and what the steps so far found. Prefix k is the base kernel plus patches 1..k of
// an N-patch series. The first step compares prefix 0 with prefix N and measures the series'
// shift; each later step compares the middle of the interval (lo, hi] still holding the change
// with lo and moves lo or hi to it. It ends when hi = lo + 1 (patch hi changed the metric) or
// when a step is undecided.
#include "runner/bisect_decision.h"

#include <optional>
#include <vector>

namespace bb {

struct BisectStep {
    int older = 0; // prefix booted as the reference
    int newer = 0; // prefix judged against it

    bool operator==(const BisectStep&) const = default;
};

struct StepOutcome {
    BisectStep step;
    StepVerdict verdict;
};

class Bisection {
  public:
    explicit Bisection(int patches); // patches >= 1

    // The step to boot next; none once finished.
    std::optional<BisectStep> next_step() const;
    // The verdict of the step next_step() named (Continue is not an outcome).
    void record(const StepOutcome& outcome);

    bool finished() const { return !next_step().has_value(); }
    bool found() const;                              // finished with one patch named
    int first_changed_patch() const { return m_hi; } // 1-based; meaningful when found()
    // The shift of the series (first step's estimate); 0 before it is decided.
    double series_shift() const { return m_delta; }
    const std::vector<StepOutcome>& steps() const { return m_steps; }
    // The step whose measurement is the named patch's own effect: the one that compared
    // prefix hi − 1 with prefix hi, else the first step (the series' whole shift: the only
    // change the bisection found). Null unless found().
    const StepOutcome* effect_step() const;
    // The step that stopped the bisection undecided; null otherwise.
    const StepOutcome* undecided_step() const;

  private:
    int m_patches;
    int m_lo = 0;
    int m_hi;
    double m_delta = 0;
    bool m_undecided = false;
    std::vector<StepOutcome> m_steps;
};

} // namespace bb
