#pragma once
// Experiment → cells: the cartesian product of its axes, filtered by include/exclude, plus the
// order in which a run boots them. Pure: no files, no processes.
#include "experiment/experiment.h"
#include "util/arch.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bb {

// Everything that decides one kernel build, ready to map onto a BuildRequest.
struct KernelBuildSpec {
    std::string variant;
    Arch arch = Arch::Arm64;
    std::string source; // empty: bootbench's default source
    std::string base;
    std::vector<std::string> fragments; // the kernel's, then the variant's
    std::optional<std::string> preempt;
    std::vector<std::string> set; // the kernel's, then the variant's (later wins)
    std::vector<std::filesystem::path> patches;
    std::optional<int> hz; // none: whatever base and fragments give
    bool default_fragment =
        true; // the arch's minimal fragment first (`build --no-default-fragment`)
};

// Added to the build of every nested cell (kernels/fragments/arm64-kvm-host.config).
constexpr const char* k_nested_l1_fragment = "arm64-kvm-host";

// One point of the matrix: the values experiment/axis_table.h places. Unset optionals and empty
// strings mean "not an axis of this experiment": the runner's defaults apply (no -bios, the
// arch's machine and cpu, ...); hz lives in `build`, which it changes.
struct Cell {
    std::string variant;
    std::optional<int> smp;
    std::optional<int> memory_mb;
    std::optional<std::string> firmware; // name or absolute path; none for "none" (no -bios)
    std::string machine;
    std::string cpu;
    Topology topology = Topology::Guest;
    std::optional<int> l2_queues; // nested: queues of L2's devices that take them
    std::vector<std::pair<std::string, std::string>> cmdline_params; // file order
    std::string cmdline; // guest.cmdline, variant.cmdline, then param=value, space separated

    // "variant=prefix;hz=250;...;param=value": the declared axes in canonical order (cmdline
    // parameters sorted by name), values as written with '\' and ';' escaped. Stable across
    // runs and machines, so stored boots can be matched to cells (resume, compare).
    std::string cell_key;
    KernelBuildSpec build;
    std::string build_id;  // canonical JSON of `build`: equal ids boot the same kernel
    nlohmann::json params; // declared axis -> value (integers as numbers)
};

std::vector<Cell> expand_matrix(const Experiment& experiment);

// The build ids of `cells`, each once, in order of first use.
std::vector<std::string> distinct_builds(const std::vector<Cell>& cells);

// The canonical JSON description of a build (sorted keys, compact).
std::string build_id(const KernelBuildSpec& build);

// Every (cell index, repeat) of a run, round by round: round r boots every cell once, in a
// fresh seeded shuffle (shuffled) or in cell order. The shuffle is a Fisher–Yates over
// std::mt19937_64 with its own unbiased bounded draw, so a recorded seed reproduces the same
// order with any standard library.
std::vector<std::pair<size_t, int>> schedule_order(const std::vector<Cell>& cells, int repeats,
                                                   std::uint64_t seed, bool shuffled);

// `bootbench run --only AXIS=V1,V2`: keeps the cells whose value on each named axis is one of
// the listed ones (canonical text, as in cell keys). Throws Error for an axis the experiment
// does not declare or a value the axis does not have, naming the ones it has.
using AxisRestriction = std::vector<std::pair<std::string, std::vector<std::string>>>;
AxisRestriction parse_axis_restrictions(const std::vector<std::string>& specs);
std::vector<Cell> restrict_cells(const Experiment& experiment, std::vector<Cell> cells,
                                 const AxisRestriction& only);

} // namespace bb
