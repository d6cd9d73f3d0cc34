#include "report/phase_samples.h"

#include "report/sample_query.h"
#include "store/endpoint_origin.h"

#include <map>

namespace bb {

namespace {

struct PhaseKeyLess {
    bool operator()(const std::vector<AxisValue>& a, const std::vector<AxisValue>& b) const {
        return group_key_less(a, b);
    }
};

void add_phase_boot(const PhaseBoot& boot, PhaseGroup& group) {
    ++group.boots;
    if (!boot.from_marker.empty()) {
        ++group.from_marker;
        return;
    }
    if (!boot.entered) {
        ++group.excluded;
        return;
    }
    ++group.entered;
    // As the grouped report counts them: a failed boot is failed even when it was also loaded.
    group.used_failed += boot.failed ? 1 : 0;
    group.used_loaded += !boot.failed && boot.loaded ? 1 : 0;
    const PhaseValues values = phase_values(boot.moments);
    for (size_t p = 0; p < k_phase_count; ++p) {
        if (values[p]) {
            group.phases[p].push_back(*values[p]);
        } else {
            ++group.lacking[p];
        }
    }
    if (const auto total = phase_value(k_endpoint_phase, boot.moments)) {
        group.endpoint.push_back(*total);
    } else {
        ++group.lacking_endpoint;
    }
}

// The selection read with one moment's column as the metric: whichever of the boot's moments
// the used-sample rule admits is set.
void read_moment(Database& db, SampleQuery query, size_t moment,
                 std::map<long long, PhaseBoot>& boots, std::vector<std::string>& axes) {
    query.metric = std::string(k_boot_moments[moment].column);
    const SampleSet set = query_samples(db, query);
    axes = set.axes;
    for (const auto& group : set.groups) {
        for (const auto& sample : group.samples) {
            PhaseBoot& boot = boots[sample.boot_id];
            boot.boot_id = sample.boot_id;
            boot.key = group.key;
            boot.moments[static_cast<size_t>(BootMoment::QemuStart)] = 0.0;
            boot.failed = sample.outcome != "ok";
            boot.loaded = sample.loaded;
            if (sample.use == Sample::Use::Used && sample.value) {
                boot.moments[moment] = *sample.value;
                boot.entered = true;
            }
        }
    }
}

} // namespace

PhaseSet group_phases(const std::vector<std::string>& axes, const std::vector<PhaseBoot>& boots) {
    PhaseSet set;
    set.axes = axes;
    std::map<std::vector<AxisValue>, PhaseGroup, PhaseKeyLess> groups;
    for (const auto& boot : boots) {
        PhaseGroup& group = groups[boot.key];
        add_phase_boot(boot, group);
        ++set.boots;
        if (!boot.from_marker.empty()) {
            ++set.from_marker[boot.from_marker];
        } else if (boot.entered) {
            ++set.entered;
        }
    }
    for (auto& [key, group] : groups) {
        group.key = key;
        set.groups.push_back(std::move(group));
    }
    return set;
}

PhaseSet query_phases(Database& db, SampleQuery query) {
    std::map<long long, PhaseBoot> by_id;
    std::vector<std::string> axes;
    for (size_t moment = 1; moment < k_moment_count; ++moment) {
        read_moment(db, query, moment, by_id, axes);
    }
    std::vector<long long> ids;
    for (const auto& [id, boot] : by_id) {
        ids.push_back(id);
    }
    for (const auto& [id, marker] : boots_timed_from_a_marker(db, ids)) {
        by_id.at(id).from_marker = marker;
    }
    std::vector<PhaseBoot> boots;
    for (auto& [id, boot] : by_id) {
        boots.push_back(std::move(boot));
    }
    PhaseSet set = group_phases(axes, boots);
    set.include_failed = query.include_failed;
    set.include_loaded = query.include_loaded;
    return set;
}

const std::vector<double>& phase_group_values(const PhaseGroup& group, size_t phase) {
    return phase < k_phase_count ? group.phases[phase] : group.endpoint;
}

const BootPhaseInfo& phase_info(size_t phase) {
    return phase < k_phase_count ? k_boot_phases[phase] : k_endpoint_phase;
}

} // namespace bb
