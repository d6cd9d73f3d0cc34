#include "schedule/slots.h"

#include <fmt/format.h>

#include <algorithm>

namespace bb {

SlotPlan plan_slots(int host_cpus, int guest_vcpus, int requested) {
    SlotPlan plan;
    host_cpus = std::max(host_cpus, 1);
    const int per_slot = guest_vcpus + 1;
    int count = host_cpus / per_slot;
    if (count == 0) {
        // The guest alone is bigger than the host: run one at a time on every CPU and say so,
        // because its timings then include contention between its own vCPUs.
        plan.warning = fmt::format("a guest with {} vCPUs needs {} host CPUs (vCPUs + 1) but the "
                                   "host has {}: guests are overcommitted",
                                   guest_vcpus, per_slot, host_cpus);
        std::vector<int> all(static_cast<size_t>(host_cpus));
        for (int cpu = 0; cpu < host_cpus; ++cpu) {
            all[static_cast<size_t>(cpu)] = cpu;
        }
        plan.slots.push_back(all);
        return plan;
    }
    if (requested > 0) {
        if (requested > count) {
            plan.warning = fmt::format("--slots {} would oversubscribe the host ({} CPUs, {} per "
                                       "guest): using {}",
                                       requested, host_cpus, per_slot, count);
        }
        count = std::min(count, requested);
    }
    for (int slot = 0; slot < count; ++slot) {
        std::vector<int> cpus;
        for (int i = 0; i < per_slot; ++i) {
            cpus.push_back(slot * per_slot + i);
        }
        plan.slots.push_back(cpus);
    }
    return plan;
}

} // namespace bb
