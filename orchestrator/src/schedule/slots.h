#pragma once
#include <string>
#include <vector>

namespace bb {

// A slot is a set of host CPUs one guest is pinned to: its vCPUs plus one for qemu's own I/O
// and main-loop threads. Slots never share CPUs, so parallel guests do not steal from each other.
struct SlotPlan {
    std::vector<std::vector<int>> slots;
    std::string warning; // set when a guest needs more CPUs than the host has (overcommitted)
};

// `requested` = 0 means "as many as fit". Always at least one slot.
SlotPlan plan_slots(int host_cpus, int guest_vcpus, int requested);

} // namespace bb
