#pragma once
// The bisection of a patch series, pure (docs/bisect.md): which prefixes the next step boots
// and what the steps so far found. Prefix k is the base kernel plus patches 1..k of an N-patch
// series. The first step compares prefix 0 with prefix N. Each later step boots the middle of
// the range (lo, hi] still holding the change beside both its ends and moves lo or hi to it.
// It ends when hi = lo + 1 (patch hi changed the metric) or when a step is undecided.
#include "bisect/bisect_decision.h"

#include <optional>
#include <vector>

namespace bb {

struct BisectStep {
    int older = 0;  // prefix booted as the reference (lo)
    int newer = 0;  // prefix judged against it: N in the first step, the middle later
    int upper = -1; // middle steps: the newer end (hi), booted beside them; -1 in the first

    bool middle() const { return upper >= 0; }
    bool operator==(const BisectStep&) const = default;
};

struct StepOutcome {
    BisectStep step;
    StepVerdict verdict;
};

// The measurement of the named patch's own effect: prefix `older` = hi − 1 against prefix
// `newer` = hi, from the step that booted both.
struct PatchEffect {
    const StepOutcome* step = nullptr;
    const stats::Result* shift = nullptr;
    int older = 0;
    int newer = 0;
};

// The most steps a bisection of `patches` patches takes: the first, then one per halving of
// the range. A bisect's α is split over them (bisect_runner.h): each step gets α / max_steps,
// so the chance that any step decides wrongly — and a wrong patch is named — is at most α.
int max_steps(int patches);

class Bisection {
  public:
    explicit Bisection(int patches); // patches >= 1

    // The step to boot next; none once finished.
    std::optional<BisectStep> next_step() const;
    // The verdict of the step next_step() named (Continue is not an outcome).
    void record(const StepOutcome& outcome);

    bool finished() const { return !next_step().has_value(); }
    bool found() const;                              // finished with one patch named
    int first_changed_patch() const { return m_hi; } // when found(); else the range's end
    int range_start() const { return m_lo; }         // the change lies in (lo, hi]
    const std::vector<StepOutcome>& steps() const { return m_steps; }
    // Every step that ends a bisection on a patch booted prefixes hi − 1 and hi side by side.
    // Empty unless found().
    std::optional<PatchEffect> effect() const;
    // The step that stopped the bisection undecided; null otherwise.
    const StepOutcome* undecided_step() const;

  private:
    int m_patches;
    int m_lo = 0;
    int m_hi;
    bool m_undecided = false;
    std::vector<StepOutcome> m_steps;
};

} // namespace bb
