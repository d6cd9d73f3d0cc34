#pragma once
// The validated model of an experiment file (docs/experiments.md). Everything here has been
// checked by parse_experiment: names are well formed, values are legal, paths are absolute, and
// include/exclude rules name declared axes and existing values.
#include "experiment/analysis.h"
#include "experiment/axis_literal.h"
#include "schedule/quiet_settings.h"
#include "util/arch.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Which kernel is timed: the built kernel booting as the guest itself, or the built kernel as
// an L1 hypervisor timing an L2 guest's boot (reproduces host-side effects such as SRCU).
enum class Topology { Guest, Nested };
std::string_view to_string(Topology topology);
std::optional<Topology> topology_from_string(std::string_view text);

// How the boots of a run are ordered: cells shuffled afresh every repeat round (so drift spreads
// over all cells) or in matrix order.
enum class RunOrder { Shuffled, Sequential };
std::string_view to_string(RunOrder order);

// One kernel to compare: the experiment's kernel plus this variant's patches and config.
struct Variant {
    std::string name;
    std::vector<std::filesystem::path> patches; // absolute, applied in order
    std::vector<std::string> fragments;         // names, or absolute paths
    std::vector<std::string> set;               // "CONFIG_X=value", after the kernel's own
    std::string cmdline;                        // appended to this variant's boots
};

struct KernelSettings {
    std::string source; // as for parse_source_spec; paths made absolute; empty: the default
    Arch arch = Arch::Arm64;
    std::string base = "tinyconfig";    // tinyconfig | defconfig | allnoconfig | absolute path
    std::vector<std::string> fragments; // names, or absolute paths
    std::optional<std::string> preempt; // none | voluntary | full
    std::vector<std::string> set;       // "CONFIG_X=value"
    std::vector<Variant> variants;      // never empty
};

struct CmdlineAxis {
    std::string parameter;           // e.g. srcutree.srcu_max_nodelay_phase
    std::vector<std::string> values; // as written, e.g. "100"
};

// One declared built-in axis (experiment/axis_table.h) and its values, distinct, in file order.
struct DeclaredAxis {
    std::string name;
    std::vector<AxisLiteral> values;
};

// An axis that is not declared is absent: the matrix uses the runner's default for it.
struct Axes {
    std::vector<DeclaredAxis> builtin; // in the table's (canonical) order
    std::vector<CmdlineAxis> cmdline;  // in file order

    // The values of a declared built-in axis; nullptr when it is not declared.
    const std::vector<AxisLiteral>* find(std::string_view name) const;
};

// A console regex whose single capture group is the metric's value. A `histogram` extractor
// turns every match of a boot into one observation of a distribution instead (e.g. rcuscale's
// 10,000 "writer-duration" lines): stored as buckets plus n/p50/p90/p99/max metrics.
struct MetricExtractor {
    std::string name;
    std::string regex; // RE2 syntax (console/metric_pattern.h), exactly one capture group
    std::string unit;
    bool histogram = false;
    double scale = 1;  // multiplies each captured value (e.g. 0.001: ns -> us)
    double bucket = 0; // histogram bucket width in the scaled unit; > 0 when histogram
};

struct GuestSettings {
    std::optional<std::filesystem::path> workload; // absolute
    std::vector<std::filesystem::path> programs;   // absolute C sources, built into /bin/<stem>
    std::string timing_marker = "boot-done";
    std::string end_marker = "end";
    std::vector<MetricExtractor> metrics;
    std::string cmdline; // appended to every boot
};

// The L2 guest of the nested topology; the L1 hypervisor is the cell's own kernel.
struct NestedSettings {
    std::optional<std::filesystem::path> l2_kernel; // absolute; none: Debian's cloud arm64 kernel
    int l2_smp = 1;
    int l2_memory_mb = 256;
    std::string l2_cmdline = "quiet"; // PL011 output under nested KVM is slow: keep L2 quiet
    std::string l2_firmware = "bios"; // bios | pflash
    // blank: L2's variable store is zeros at every boot (with -bios, the firmware formats it);
    // full: every boot starts from a copy of a store an earlier boot left full, which the
    // firmware reclaims before the kernel starts (artifacts/varstore_template.h)
    std::string l2_varstore = "blank";
    int l2_varstore_live = 4;      // full: distinct 4 KiB variables left live, the reclaim's cost
    std::string l1_probes = "all"; // all | calls: L1's SRCU probes (guest/l1_srcu_probes.h)
    std::vector<std::string> l2_modules; // L2 kernel's modules put in L2's image (efivarfs)
    // virtio devices L2 gets (guest/l2_devices.h), in file order; their drivers are loaded in L2
    // before its timing marker
    std::vector<std::string> l2_devices;
};

// A libvirt host of a fleet and how many guests it runs at once.
struct FleetHost {
    std::string uri; // e.g. qemu:///system, qemu+ssh://root@lab1/system
    int slots = 1;
    bool allow_uri_programs = false; // opt-in for a URI that runs a program (vm/libvirt_uri.h)
};

// `repeats: {min, max, until: {endpoint, ci_halfwidth}}`: a cell gets more rounds until the
// order-statistic interval of its endpoint's median is at most ci_halfwidth of the median wide
// on each side (docs/experiments.md#repeats). A rule on precision only, never on significance.
struct PrecisionTarget {
    Endpoint endpoint;
    double ci_halfwidth = 0.02; // relative: 0.02 for 2 %
};

// Axis name -> value, canonical text (integers in decimal, strings as written).
using CellRule = std::map<std::string, std::string>;

// `warmup: N` and `--warmup N`: a few boots per cell to warm the host, not a second run.
inline constexpr int k_max_warmup = 20;

struct Experiment {
    std::string name;
    std::string description;
    std::string file_name;           // as given to the parser, for messages
    std::filesystem::path directory; // absolute; relative paths in the file start here
    std::string text;                // the YAML itself, recorded with each run
    KernelSettings kernel;
    Axes axes;
    GuestSettings guest;
    NestedSettings nested;
    int repeats = 3;                      // rounds planned up front (`min` with `until`)
    int max_repeats = 3;                  // == repeats unless `until` is given
    std::optional<PrecisionTarget> until; // more rounds per cell until this precision
    std::optional<Analysis> analysis;     // the declared analysis, if any
    // `warmup: N`: N boots per cell before its repeats (every run and resume), stored with
    // negative repeat indexes and never used (store/sample_rule.h)
    int warmup = 0;
    double timeout_s = 300;
    double silence_s = 60;
    RunOrder order = RunOrder::Shuffled;
    std::optional<std::uint64_t> seed; // none: the runner picks one and records it
    std::vector<CellRule> include;     // when non-empty, a cell must match one of these
    std::vector<CellRule> exclude;     // a cell matching one of these is dropped
    std::vector<FleetHost> hosts;      // empty: this machine, qemu launched directly
    QuietSettings quiet;               // the quiet-host gate before every sample
    // `trace: initcalls`: every boot gets initcall_debug, and /init dumps the initcall lines
    // after the marker (console/initcall_trace.h)
    bool trace_initcalls = false;
};

// Axis names in canonical order; the cmdline parameters follow them.
const std::vector<std::string>& builtin_axes();
// "variant", then the declared built-in axes, then the cmdline parameters in file order.
std::vector<std::string> declared_axes(const Experiment& experiment);
// Canonical text of each value of a declared axis; empty when `axis` is not declared.
std::vector<std::string> axis_values(const Experiment& experiment, std::string_view axis);
const Variant* find_variant(const Experiment& experiment, std::string_view name);

} // namespace bb
