#pragma once
// The experiment file's reader, shared by the files that read its sections
// (experiment_parser.cpp: the top level and common values; experiment_kernel_section.cpp,
// experiment_axes_section.cpp, experiment_guest_section.cpp, experiment_analysis_section.cpp).
// Internal to experiment/: everything else reads experiment_parser.h.
#include "console/metric_pattern.h"
#include "experiment/axis_table.h"
#include "experiment/hosts_parser.h"
#include "experiment/matrix.h"
#include "experiment/yaml_reader.h"
#include "kernel/kconfig.h"
#include "util/did_you_mean.h"
#include "util/duration.h"
#include "util/error.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

namespace bb::experiment_reading {

namespace fs = std::filesystem;

// Keys each mapping accepts, in documentation order (did-you-mean prefers earlier ones).
inline const std::vector<std::string> k_top_keys{
    "name",    "description", "kernel",  "axes",    "guest",    "nested",
    "repeats", "warmup",      "timeout", "silence", "order",    "seed",
    "include", "exclude",     "hosts",   "quiet",   "analysis", "trace"};

inline const std::vector<std::string> k_kernel_keys{"source",  "arch", "base",    "fragments",
                                                    "preempt", "set",  "variants"};
inline const std::vector<std::string> k_variant_keys{"name", "patches", "fragments", "set",
                                                     "cmdline"};
inline const std::vector<std::string> k_guest_keys{"workload", "programs", "markers", "metrics",
                                                   "cmdline"};
inline const std::vector<std::string> k_marker_keys{"timing", "end"};
inline const std::vector<std::string> k_metric_keys{"name",      "regex", "unit",
                                                    "histogram", "scale", "bucket"};
inline const std::vector<std::string> k_nested_keys{
    "l2_kernel",  "l2_smp",      "l2_memory",        "l2_cmdline", "l2_firmware",
    "l2_modules", "l2_varstore", "l2_varstore_live", "l1_probes",  "l2_devices"};
inline const std::vector<std::string> k_quiet_keys{"max_load", "max_wait", "on_timeout"};
inline const std::vector<std::string> k_quiet_timeouts{"run-loaded", "stop"};
inline const std::vector<std::string> k_analysis_keys{
    "endpoint", "compare", "trend", "paired", "alpha", "family", "ratio", "direction", "secondary"};
inline const std::vector<std::string> k_secondary_keys{"endpoint", "within"};
inline const std::vector<std::string> k_endpoint_keys{"geomean"};
inline const std::vector<std::string> k_paired_modes{"round", "none"};
inline const std::vector<std::string> k_families{"all", "condition"};
inline const std::vector<std::string> k_directions{"lower", "higher"};
inline const std::vector<std::string> k_repeats_keys{"min", "max", "until"};
inline const std::vector<std::string> k_until_keys{"endpoint", "ci_halfwidth"};
// The fewest boots whose median has a 95 % order-statistic interval: fewer can never stop early.
constexpr int k_min_precision_repeats = 6;
inline const std::vector<std::string> k_l2_firmware_modes{"bios", "pflash"};
inline const std::vector<std::string> k_l2_varstore_modes{"blank", "full"};
inline const std::vector<std::string> k_l1_probe_sets{"all", "calls"};
// qemu's VIRTIO_QUEUE_MAX: virtio-blk-pci refuses more queues.
constexpr long long k_max_l2_queues = 1024;
// efivar_fill's own limit: a 256 KiB store holds about 60 variables of 4 KiB.
constexpr long long k_max_varstore_live = 40;
inline const std::vector<std::string> k_bases(k_config_bases.begin(), k_config_bases.end());
inline const std::vector<std::string> k_preempt_model_names = preempt_model_names();

constexpr long long k_max_samples = 1'000'000; // eleven days of one-second boots

// Cells before include/exclude: the product of the variants and every declared axis (as a
// double, since a hostile file can make it overflow any integer).
inline double matrix_size(const Experiment& experiment) {
    const Axes& axes = experiment.axes;
    double cells = static_cast<double>(std::max<size_t>(experiment.kernel.variants.size(), 1));
    for (const auto& axis : axes.builtin) {
        cells *= static_cast<double>(std::max<size_t>(axis.values.size(), 1));
    }
    for (const auto& parameter : axes.cmdline) {
        cells *= static_cast<double>(std::max<size_t>(parameter.values.size(), 1));
    }
    return cells;
}

// "a, b or c"
inline std::string alternatives(const std::vector<std::string>& choices) {
    std::string text;
    for (size_t i = 0; i < choices.size(); ++i) {
        text += i == 0 ? "" : (i + 1 == choices.size() ? " or " : ", ");
        text += choices[i];
    }
    return text;
}

// Names that travel in keys, markers and file names: [A-Za-z0-9._-]+.
inline bool is_name(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
}

inline bool has_space(std::string_view text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

inline bool contains(const std::vector<std::string>& items, std::string_view item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

// CONFIG_NAME=value, as merge_config and bootbench build --set take it.
inline bool is_assignment(std::string_view text) {
    const auto equals = text.find('=');
    if (equals == std::string_view::npos || equals + 1 == text.size()) {
        return false;
    }
    const std::string_view symbol = text.substr(0, equals);
    return symbol.size() > 7 && symbol.substr(0, 7) == "CONFIG_" &&
           std::all_of(symbol.begin(), symbol.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
           });
}

class ExperimentReader : public YamlReader {
  public:
    ExperimentReader(std::string file_name, fs::path directory)
        : YamlReader(std::move(file_name)), m_directory(std::move(directory)) {}

    Experiment read(const YAML::Node& root);

  private:
    std::string string_value(const Entry& entry) const {
        return string_of(entry.value, entry.key.Scalar());
    }
    std::string name_value(const Entry& entry, const std::string& what) const;
    bool read_trace(const Entry& entry) const;
    std::vector<std::string> string_list(const Entry& entry) const;
    double seconds_value(const Entry& entry) const;
    std::vector<AxisLiteral> integer_axis(const Entry& entry, const BuiltinAxis& axis) const;
    std::vector<AxisLiteral> text_axis(const Entry& entry, const BuiltinAxis& axis) const;
    std::vector<std::string> string_axis(const Entry& entry) const;
    void check_distinct(const YAML::Node& list, const std::string& key,
                        const std::vector<std::string>& texts) const;

    fs::path resolved(const std::string& path) const;
    std::string resolved_source(const Entry& entry) const;
    std::string resolved_source_text(const Entry& entry) const; // without the build's check
    std::string resolved_base(const Entry& entry) const;
    std::vector<std::string> fragments(const Entry& entry) const;
    std::vector<std::string> assignments(const Entry& entry) const;

    void read_kernel(const Entry& entry, KernelSettings& kernel) const;
    Variant read_variant(const YAML::Node& node, const std::set<std::string>& taken) const;
    void read_axes(const Entry& entry, Axes& axes) const;
    void read_guest(const Entry& entry, GuestSettings& guest) const;
    void read_nested(const Entry& entry, NestedSettings& nested) const;
    void read_varstore(const Entries& entries, NestedSettings& nested) const;
    void read_quiet(const Entry& entry, QuietSettings& quiet) const;
    void check_topology(const Experiment& experiment, const Entries& entries) const;
    void read_l2_devices(const Entry& entry, NestedSettings& nested) const;
    void check_l2_queues(const Experiment& experiment, const Entries& entries) const;
    std::vector<fs::path> read_programs(const Entry& entry) const;
    MetricExtractor read_metric(const YAML::Node& node) const;
    std::vector<CellRule> read_rules(const Entry& entry, const Experiment& experiment) const;
    std::string declared_axis(const YAML::Node& node, const std::string& key,
                              const Experiment& experiment) const;
    std::string axis_value(const YAML::Node& node, const std::string& axis,
                           const Experiment& experiment) const;
    Endpoint read_endpoint(const Entry& entry, const Experiment& experiment) const;
    std::string choice(const Entry& entry, const std::vector<std::string>& choices) const;
    std::vector<ComparedPair> read_pairs(const YAML::Node& list, const std::string& axis,
                                         const Experiment& experiment) const;
    void read_compare(const Entry& entry, const Experiment& experiment, Analysis& analysis) const;
    void read_trend(const Entry& entry, const Experiment& experiment, Analysis& analysis) const;
    Analysis read_analysis(const Entry& entry, const Experiment& experiment) const;
    std::vector<SecondaryEndpoint> read_secondary(const Entry& entry,
                                                  const Experiment& experiment) const;
    double fraction_value(const Entry& entry, const std::string& expected) const;
    void read_repeats(const Entry& entry, Experiment& experiment) const;

    fs::path m_directory;
};

} // namespace bb::experiment_reading
