#pragma once
// Which phases carry a shift of the endpoint between two sets of boots (compare --phases): per
// group and phase, the Hodges–Lehmann shift B − A of the boots' phase values with its exact
// Mann–Whitney interval (compare_medians, the estimator `bootbench compare` uses), and whether
// that interval excludes 0. The boot is the unit: each gives one value per phase.
#include "report/estimates.h"
#include "report/phase_samples.h"

#include <array>
#include <string>
#include <vector>

namespace bb {

struct PhaseShift {
    Comparison comparison;
    // The interval answered at 1 − α and lies wholly above or below 0: the phase carries a shift.
    bool carries = false;
};

struct GroupAttribution {
    std::vector<AxisValue> key;
    const PhaseGroup* a = nullptr; // null: the group exists only in B
    const PhaseGroup* b = nullptr; // null: the group exists only in A
    std::array<PhaseShift, k_phase_count> phases;
    PhaseShift endpoint;
};

struct PhaseAttribution {
    std::vector<std::string> axes;
    double alpha = 0.05;
    std::vector<GroupAttribution> groups; // sorted by key, as both sets are
};

// An answered interval (at the level asked for) that does not hold 0.
bool interval_excludes_zero(const Comparison& comparison);

// Both sets grouped by the same axes; A is the baseline. Each interval is its own (level 1 − α),
// not adjusted over the phases.
PhaseAttribution attribute_phases(const PhaseSet& a, const PhaseSet& b,
                                  const EstimateOptions& options = {});

// The names of the phases that carry the shift, in order ("kernel, init"); empty when none does.
std::vector<std::string> carrying_phases(const GroupAttribution& group);

} // namespace bb
