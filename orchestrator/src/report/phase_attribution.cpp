#include "report/phase_attribution.h"

#include "report/group_merge.h"

#include <cmath>
#include <stdexcept>

namespace bb {

namespace {

PhaseShift phase_shift(const std::vector<double>& a, const std::vector<double>& b,
                       const EstimateOptions& options) {
    PhaseShift shift;
    shift.comparison = compare_medians(a, b, options);
    shift.carries = interval_excludes_zero(shift.comparison);
    return shift;
}

GroupAttribution attribute_group(const PhaseGroup* a, const PhaseGroup* b,
                                 const EstimateOptions& options) {
    GroupAttribution group;
    group.a = a;
    group.b = b;
    group.key = a ? a->key : b->key;
    if (!a || !b) {
        return group; // one side only: nothing to compare
    }
    for (size_t p = 0; p < k_phase_count; ++p) {
        group.phases[p] = phase_shift(a->phases[p], b->phases[p], options);
    }
    group.endpoint = phase_shift(a->endpoint, b->endpoint, options);
    return group;
}

} // namespace

bool interval_excludes_zero(const Comparison& comparison) {
    const Interval& ci = comparison.difference_ci;
    return comparison.insufficient.empty() && std::isfinite(ci.low) && std::isfinite(ci.high) &&
           (ci.low > 0 || ci.high < 0);
}

PhaseAttribution attribute_phases(const PhaseSet& a, const PhaseSet& b,
                                  const EstimateOptions& options) {
    if (a.axes != b.axes) {
        throw std::invalid_argument("attribute_phases: both sets must be grouped alike");
    }
    PhaseAttribution result;
    result.axes = a.axes;
    result.alpha = options.alpha;
    merge_by_key(a.groups, b.groups, [&](const PhaseGroup* left, const PhaseGroup* right) {
        result.groups.push_back(attribute_group(left, right, options));
    });
    return result;
}

std::vector<std::string> carrying_phases(const GroupAttribution& group) {
    std::vector<std::string> names;
    for (size_t p = 0; p < k_phase_count; ++p) {
        if (group.phases[p].carries) {
            names.emplace_back(k_boot_phases[p].name);
        }
    }
    return names;
}

} // namespace bb
