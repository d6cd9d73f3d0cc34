#include "experiment/experiment_parser.h"

#include "console/metric_pattern.h"
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

namespace bb {

namespace fs = std::filesystem;

namespace {

// Keys each mapping accepts, in documentation order (did-you-mean prefers earlier ones).
const std::vector<std::string> k_top_keys{
    "name",    "description", "kernel", "axes",    "guest",   "nested", "repeats", "timeout",
    "silence", "order",       "seed",   "include", "exclude", "hosts",  "quiet",   "analysis"};
const std::vector<std::string> k_kernel_keys{"source",  "arch", "base",    "fragments",
                                             "preempt", "set",  "variants"};
const std::vector<std::string> k_variant_keys{"name", "patches", "fragments", "set", "cmdline"};
const std::vector<std::string> k_axes_keys{"hz",       "cmdline", "smp", "memory",
                                           "firmware", "machine", "cpu", "topology"};
const std::vector<std::string> k_guest_keys{"workload", "programs", "markers", "metrics",
                                            "cmdline"};
const std::vector<std::string> k_marker_keys{"timing", "end"};
const std::vector<std::string> k_metric_keys{"name",      "regex", "unit",
                                             "histogram", "scale", "bucket"};
const std::vector<std::string> k_nested_keys{"l2_kernel",   "l2_smp",           "l2_memory",
                                             "l2_cmdline",  "l2_firmware",      "l2_modules",
                                             "l2_varstore", "l2_varstore_live", "l1_probes"};
const std::vector<std::string> k_quiet_keys{"max_load", "max_wait", "on_timeout"};
const std::vector<std::string> k_quiet_timeouts{"run-loaded", "stop"};
const std::vector<std::string> k_analysis_keys{
    "endpoint", "compare", "trend", "paired", "alpha", "family", "ratio", "direction", "secondary"};
const std::vector<std::string> k_secondary_keys{"endpoint", "within"};
const std::vector<std::string> k_endpoint_keys{"geomean"};
const std::vector<std::string> k_paired_modes{"round", "none"};
const std::vector<std::string> k_families{"all", "condition"};
const std::vector<std::string> k_directions{"lower", "higher"};
const std::vector<std::string> k_repeats_keys{"min", "max", "until"};
const std::vector<std::string> k_until_keys{"endpoint", "ci_halfwidth"};
// The fewest boots whose median has a 95 % order-statistic interval: fewer can never stop early.
constexpr int k_min_precision_repeats = 6;
const std::vector<std::string> k_l2_firmware_modes{"bios", "pflash"};
const std::vector<std::string> k_l2_varstore_modes{"blank", "full"};
const std::vector<std::string> k_l1_probe_sets{"all", "calls"};
// efivar_fill's own limit: a 256 KiB store holds about 60 variables of 4 KiB.
constexpr long long k_max_varstore_live = 40;
const std::vector<std::string> k_bases(k_config_bases.begin(), k_config_bases.end());
const std::vector<std::string> k_preempt_model_names = preempt_model_names();

constexpr long long k_max_samples = 1'000'000; // eleven days of one-second boots

// Cells before include/exclude: the product of the variants and every declared axis (as a
// double, since a hostile file can make it overflow any integer).
double matrix_size(const Experiment& experiment) {
    const Axes& axes = experiment.axes;
    double cells = static_cast<double>(std::max<size_t>(experiment.kernel.variants.size(), 1));
    for (const size_t size :
         {axes.hz.size(), axes.smp.size(), axes.memory_mb.size(), axes.firmware.size(),
          axes.machine.size(), axes.cpu.size(), axes.topology.size()}) {
        cells *= static_cast<double>(std::max<size_t>(size, 1));
    }
    for (const auto& parameter : axes.cmdline) {
        cells *= static_cast<double>(std::max<size_t>(parameter.values.size(), 1));
    }
    return cells;
}

// "a, b or c"
std::string alternatives(const std::vector<std::string>& choices) {
    std::string text;
    for (size_t i = 0; i < choices.size(); ++i) {
        text += i == 0 ? "" : (i + 1 == choices.size() ? " or " : ", ");
        text += choices[i];
    }
    return text;
}

// Names that travel in keys, markers and file names: [A-Za-z0-9._-]+.
bool is_name(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
}

bool has_space(std::string_view text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

bool contains(const std::vector<std::string>& items, std::string_view item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

// CONFIG_NAME=value, as merge_config and bootbench build --set take it.
bool is_assignment(std::string_view text) {
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
    std::vector<std::string> string_list(const Entry& entry) const;
    double seconds_value(const Entry& entry) const;
    std::vector<int> integer_axis(const Entry& entry, long long minimum) const;
    std::vector<std::string> string_axis(const Entry& entry) const;
    void check_distinct(const YAML::Node& list, const std::string& key,
                        const std::vector<std::string>& texts) const;

    fs::path resolved(const std::string& path) const;
    std::string resolved_source(const Entry& entry) const;
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

std::string ExperimentReader::name_value(const Entry& entry, const std::string& what) const {
    const std::string name = string_value(entry);
    if (!is_name(name)) {
        fail(entry.value, fmt::format("{}: {} is not a valid {} (expected letters, digits, '.', "
                                      "'_' or '-')",
                                      entry.key.Scalar(), in_quotes(name), what));
    }
    return name;
}

std::vector<std::string> ExperimentReader::string_list(const Entry& entry) const {
    const std::string& key = entry.key.Scalar();
    if (!entry.value.IsSequence()) {
        fail(entry.value,
             fmt::format("{}: expected a list of strings, got {}", key, describe(entry.value)));
    }
    std::vector<std::string> items;
    for (const auto& item : entry.value) {
        std::string text = string_of(item, key);
        if (text.empty()) {
            fail(item, fmt::format("{}: expected a non-empty string", key));
        }
        items.push_back(std::move(text));
    }
    return items;
}

double ExperimentReader::seconds_value(const Entry& entry) const {
    const std::string& key = entry.key.Scalar();
    const auto value =
        entry.value.IsScalar() ? parse_number(entry.value.Scalar()) : std::optional<double>();
    if (!value) {
        fail(entry.value,
             fmt::format("{}: expected a number of seconds, got {}", key, describe(entry.value)));
    }
    if (*value <= 0) {
        fail(entry.value, fmt::format("{}: expected a number of seconds > 0, got {}", key,
                                      entry.value.Scalar()));
    }
    return *value;
}

void ExperimentReader::check_distinct(const YAML::Node& list, const std::string& key,
                                      const std::vector<std::string>& texts) const {
    // A repeated value would give two cells with one key: the second could never be told apart.
    std::set<std::string> seen;
    for (size_t i = 0; i < texts.size(); ++i) {
        if (!seen.insert(texts[i]).second) {
            fail(list[i], fmt::format("{}: {} appears twice (the values of an axis must be "
                                      "distinct)",
                                      key, texts[i]));
        }
    }
}

std::vector<int> ExperimentReader::integer_axis(const Entry& entry, long long minimum) const {
    const std::string& key = entry.key.Scalar();
    if (!entry.value.IsSequence() || entry.value.size() == 0) {
        fail(entry.value, fmt::format("{}: expected a non-empty list of integers, got {}", key,
                                      describe(entry.value)));
    }
    std::vector<int> values;
    std::vector<std::string> texts;
    for (const auto& item : entry.value) {
        values.push_back(static_cast<int>(integer_of(item, key, minimum)));
        texts.push_back(std::to_string(values.back()));
    }
    check_distinct(entry.value, key, texts);
    return values;
}

std::vector<std::string> ExperimentReader::string_axis(const Entry& entry) const {
    const std::string& key = entry.key.Scalar();
    if (!entry.value.IsSequence() || entry.value.size() == 0) {
        fail(entry.value, fmt::format("{}: expected a non-empty list of strings, got {}", key,
                                      describe(entry.value)));
    }
    const std::vector<std::string> values = string_list(entry);
    check_distinct(entry.value, key, values);
    return values;
}

fs::path ExperimentReader::resolved(const std::string& path) const {
    const fs::path given(path);
    return (given.is_absolute() ? given : m_directory / given).lexically_normal();
}

std::string ExperimentReader::resolved_source(const Entry& entry) const {
    const std::string text = string_value(entry);
    if (text.rfind("debian:", 0) == 0) {
        if (text.rfind("debian:linux-source-", 0) != 0 || text.size() == 20) {
            fail(entry.value,
                 fmt::format("source: expected debian:linux-source-X.Y, got {}", in_quotes(text)));
        }
        return text;
    }
    if (text.rfind("git:", 0) == 0) {
        const auto at = text.rfind('@');
        if (at == std::string::npos || at <= 4 || at + 1 == text.size()) {
            fail(entry.value,
                 fmt::format("source: expected git:REPOSITORY@REF, got {}", in_quotes(text)));
        }
        if (text[at + 1] == '-') {
            // git would read such a ref as one of its own options.
            fail(entry.value, fmt::format("source: the REF of {} starts with '-' (expected a "
                                          "branch, tag or commit)",
                                          in_quotes(text)));
        }
        const std::string repository = text.substr(4, at - 4);
        if (repository.find("://") != std::string::npos) {
            return text;
        }
        return "git:" + resolved(repository).string() + text.substr(at);
    }
    if (text.empty()) {
        fail(entry.value, "source: expected debian:linux-source-X.Y, a path or git:REPOSITORY@REF");
    }
    return resolved(text).string();
}

std::string ExperimentReader::resolved_base(const Entry& entry) const {
    const std::string text = string_value(entry);
    if (contains(k_bases, text)) {
        return text;
    }
    // Paths are told from names by a '/', as for fragments: a typo is not mistaken for a file.
    if (text.find('/') == std::string::npos) {
        const auto suggestion = did_you_mean(text, k_bases);
        fail(entry.value,
             fmt::format("base: {} is not a base config ({})", in_quotes(text),
                         suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                    : "expected tinyconfig, defconfig, allnoconfig or a path "
                                      "containing '/'"));
    }
    return resolved(text).string();
}

std::vector<std::string> ExperimentReader::fragments(const Entry& entry) const {
    std::vector<std::string> items = string_list(entry);
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].find('/') != std::string::npos) {
            items[i] = resolved(items[i]).string();
        } else if (!is_name(items[i])) {
            fail(entry.value[i],
                 fmt::format("fragments: {} is not a fragment name (expected a name from "
                             "kernels/fragments or a path containing '/')",
                             in_quotes(items[i])));
        }
    }
    return items;
}

std::vector<std::string> ExperimentReader::assignments(const Entry& entry) const {
    std::vector<std::string> items = string_list(entry);
    for (size_t i = 0; i < items.size(); ++i) {
        if (!is_assignment(items[i])) {
            fail(entry.value[i],
                 fmt::format("set: expected CONFIG_NAME=value, got {}", in_quotes(items[i])));
        }
    }
    return items;
}

void ExperimentReader::read_kernel(const Entry& entry, KernelSettings& kernel) const {
    const Entries entries = mapping(entry.value, "kernel", k_kernel_keys);
    const Entry& arch = required(entries, entry.value, "kernel", "arch", "arm64 or x86_64");
    const std::string arch_text = string_value(arch);
    const auto parsed_arch = arch_from_string(arch_text);
    if (!parsed_arch) {
        fail(arch.value, fmt::format("arch: {} is not a supported architecture (expected arm64 "
                                     "or x86_64)",
                                     in_quotes(arch_text)));
    }
    kernel.arch = *parsed_arch;
    if (const auto found = entries.find("source"); found != entries.end()) {
        kernel.source = resolved_source(found->second);
    }
    if (const auto found = entries.find("base"); found != entries.end()) {
        kernel.base = resolved_base(found->second);
    }
    if (const auto found = entries.find("fragments"); found != entries.end()) {
        kernel.fragments = fragments(found->second);
    }
    if (const auto found = entries.find("preempt"); found != entries.end()) {
        const std::string model = string_value(found->second);
        if (!contains(k_preempt_model_names, model)) {
            fail(found->second.value,
                 fmt::format("preempt: {} is not a preemption model (expected {})",
                             in_quotes(model), alternatives(k_preempt_model_names)));
        }
        kernel.preempt = model;
    }
    if (const auto found = entries.find("set"); found != entries.end()) {
        kernel.set = assignments(found->second);
    }
    const auto variants = entries.find("variants");
    if (variants == entries.end()) {
        kernel.variants.push_back(Variant{"stock", {}, {}, {}, {}});
        return;
    }
    const YAML::Node& list = variants->second.value;
    if (!list.IsSequence() || list.size() == 0) {
        fail(list, fmt::format("variants: expected a non-empty list of variants such as "
                               "{{name: stock}}, got {}",
                               describe(list)));
    }
    std::set<std::string> taken;
    for (const auto& item : list) {
        kernel.variants.push_back(read_variant(item, taken));
        taken.insert(kernel.variants.back().name);
    }
}

Variant ExperimentReader::read_variant(const YAML::Node& node,
                                       const std::set<std::string>& taken) const {
    const Entries entries = mapping(node, "variants", k_variant_keys);
    const Entry& name = required(entries, node, "variants", "name", "the variant's name");
    Variant variant;
    variant.name = name_value(name, "variant name");
    if (taken.count(variant.name) != 0) {
        fail(name.value, fmt::format("name: variant {} is defined twice (variant names must be "
                                     "unique)",
                                     in_quotes(variant.name)));
    }
    if (const auto found = entries.find("patches"); found != entries.end()) {
        for (const auto& patch : string_list(found->second)) {
            variant.patches.push_back(resolved(patch));
        }
    }
    if (const auto found = entries.find("fragments"); found != entries.end()) {
        variant.fragments = fragments(found->second);
    }
    if (const auto found = entries.find("set"); found != entries.end()) {
        variant.set = assignments(found->second);
    }
    if (const auto found = entries.find("cmdline"); found != entries.end()) {
        variant.cmdline = string_value(found->second);
    }
    return variant;
}

void ExperimentReader::read_axes(const Entry& entry, Axes& axes) const {
    const Entries entries = mapping(entry.value, "axes", k_axes_keys);
    if (const auto found = entries.find("hz"); found != entries.end()) {
        const YAML::Node& list = found->second.value;
        if (!list.IsSequence() || list.size() == 0) {
            fail(list,
                 fmt::format("hz: expected a non-empty list of integers, got {}", describe(list)));
        }
        for (const auto& item : list) {
            const auto hz = static_cast<int>(integer_of(item, "hz", 1));
            if (std::find(k_hz_choices.begin(), k_hz_choices.end(), hz) == k_hz_choices.end()) {
                fail(item, fmt::format("hz: {} is not a Kconfig HZ choice (expected {})", hz,
                                       hz_choices_text()));
            }
            axes.hz.push_back(hz);
        }
        std::vector<std::string> texts;
        for (int hz : axes.hz) {
            texts.push_back(std::to_string(hz));
        }
        check_distinct(list, "hz", texts);
    }
    if (const auto found = entries.find("smp"); found != entries.end()) {
        axes.smp = integer_axis(found->second, 1);
    }
    if (const auto found = entries.find("memory"); found != entries.end()) {
        axes.memory_mb = integer_axis(found->second, 1);
    }
    if (const auto found = entries.find("firmware"); found != entries.end()) {
        axes.firmware = string_axis(found->second);
    }
    if (const auto found = entries.find("machine"); found != entries.end()) {
        axes.machine = string_axis(found->second);
    }
    if (const auto found = entries.find("cpu"); found != entries.end()) {
        axes.cpu = string_axis(found->second);
    }
    if (const auto found = entries.find("topology"); found != entries.end()) {
        const std::vector<std::string> names = string_axis(found->second);
        for (size_t i = 0; i < names.size(); ++i) {
            const auto topology = topology_from_string(names[i]);
            if (!topology) {
                fail(found->second.value[i],
                     fmt::format("topology: {} is not a topology (expected guest or nested)",
                                 in_quotes(names[i])));
            }
            axes.topology.push_back(*topology);
        }
    }
    if (const auto found = entries.find("cmdline"); found != entries.end()) {
        const YAML::Node& map = found->second.value;
        if (!map.IsMap() || map.size() == 0) {
            fail(map, fmt::format("cmdline: expected a mapping of kernel parameters to lists of "
                                  "values, got {}",
                                  describe(map)));
        }
        std::set<std::string> seen;
        for (const auto& item : map) {
            const std::string parameter = string_of(item.first, "cmdline");
            if (!is_name(parameter)) {
                fail(item.first, fmt::format("cmdline: {} is not a kernel parameter name "
                                             "(expected letters, digits, '.', '_' or '-')",
                                             in_quotes(parameter)));
            }
            // Parameters share the namespace of include/exclude keys with the built-in axes.
            if (contains(builtin_axes(), parameter)) {
                fail(item.first, fmt::format("cmdline: parameter {} has the name of a built-in "
                                             "axis (expected a kernel parameter such as "
                                             "rcutree.name)",
                                             in_quotes(parameter)));
            }
            if (!seen.insert(parameter).second) {
                fail(item.first, fmt::format("duplicate key {}", in_quotes(parameter)));
            }
            const std::vector<std::string> values = string_axis(Entry{item.first, item.second});
            for (size_t i = 0; i < values.size(); ++i) {
                if (has_space(values[i])) {
                    fail(item.second[i], fmt::format("{}: expected a value without spaces, got {}",
                                                     parameter, in_quotes(values[i])));
                }
            }
            axes.cmdline.push_back(CmdlineAxis{parameter, values});
        }
    }
}

MetricExtractor ExperimentReader::read_metric(const YAML::Node& node) const {
    const Entries entries = mapping(node, "metrics", k_metric_keys);
    MetricExtractor metric;
    metric.name =
        name_value(required(entries, node, "metrics", "name", "the metric's name"), "metric name");
    const Entry& regex =
        required(entries, node, "metrics", "regex", "a regular expression with one capture group");
    metric.regex = string_value(regex);
    // The extractor's own engine checks it, so a file that validates also runs.
    const MetricPattern compiled(metric.regex);
    if (!compiled.error().empty()) {
        fail(regex.value, fmt::format("regex: {} is not a valid regular expression (RE2 syntax: "
                                      "{})",
                                      in_quotes(metric.regex), compiled.error()));
    }
    if (compiled.capture_groups() != 1) {
        fail(regex.value, fmt::format("regex: {} has {} capture groups (expected exactly one, "
                                      "around the value)",
                                      in_quotes(metric.regex), compiled.capture_groups()));
    }
    if (const auto found = entries.find("unit"); found != entries.end()) {
        metric.unit = string_value(found->second);
    }
    const auto positive = [this](const Entry& entry, const std::string& what) {
        const auto value =
            entry.value.IsScalar() ? parse_number(entry.value.Scalar()) : std::optional<double>();
        if (!value || *value <= 0) {
            fail(entry.value, fmt::format("{}: expected {} > 0, got {}", entry.key.Scalar(), what,
                                          describe(entry.value)));
        }
        return *value;
    };
    if (const auto found = entries.find("scale"); found != entries.end()) {
        metric.scale = positive(found->second, "a factor");
    }
    const auto bucket = entries.find("bucket");
    if (const auto found = entries.find("histogram"); found != entries.end()) {
        const std::string text = string_value(found->second);
        if (text != "true" && text != "false") {
            fail(found->second.value,
                 fmt::format("histogram: expected true or false, got {}", in_quotes(text)));
        }
        metric.histogram = text == "true";
        if (metric.histogram && bucket == entries.end()) {
            fail(found->second.value, "histogram: a histogram needs 'bucket', the bucket width "
                                      "in the metric's unit (after 'scale')");
        }
    }
    if (bucket != entries.end()) {
        if (!metric.histogram) {
            fail(bucket->second.value, "bucket: only a histogram metric has buckets (add "
                                       "'histogram: true')");
        }
        metric.bucket = positive(bucket->second, "a bucket width");
    }
    return metric;
}

void ExperimentReader::read_guest(const Entry& entry, GuestSettings& guest) const {
    const Entries entries = mapping(entry.value, "guest", k_guest_keys);
    if (const auto found = entries.find("workload"); found != entries.end()) {
        const std::string path = string_value(found->second);
        if (path.empty()) {
            fail(found->second.value, "workload: expected the path of a script or program");
        }
        guest.workload = resolved(path);
    }
    if (const auto found = entries.find("programs"); found != entries.end()) {
        guest.programs = read_programs(found->second);
    }
    if (const auto found = entries.find("markers"); found != entries.end()) {
        const Entries markers = mapping(found->second.value, "markers", k_marker_keys);
        if (const auto timing = markers.find("timing"); timing != markers.end()) {
            guest.timing_marker = name_value(timing->second, "marker name");
        }
        if (const auto end = markers.find("end"); end != markers.end()) {
            guest.end_marker = name_value(end->second, "marker name");
        }
    }
    if (const auto found = entries.find("metrics"); found != entries.end()) {
        const YAML::Node& list = found->second.value;
        if (!list.IsSequence()) {
            fail(list, fmt::format("metrics: expected a list of {{name, regex, unit}} mappings, "
                                   "got {}",
                                   describe(list)));
        }
        std::set<std::string> names;
        for (const auto& item : list) {
            guest.metrics.push_back(read_metric(item));
            if (!names.insert(guest.metrics.back().name).second) {
                fail(item, fmt::format("metrics: metric {} is defined twice (metric names must be "
                                       "unique)",
                                       in_quotes(guest.metrics.back().name)));
            }
        }
    }
    if (const auto found = entries.find("cmdline"); found != entries.end()) {
        guest.cmdline = string_value(found->second);
    }
}

void ExperimentReader::read_nested(const Entry& entry, NestedSettings& nested) const {
    const Entries entries = mapping(entry.value, "nested", k_nested_keys);
    if (const auto found = entries.find("l2_kernel"); found != entries.end()) {
        const std::string path = string_value(found->second);
        if (path.empty()) {
            fail(found->second.value, "l2_kernel: expected the path of an arm64 kernel Image");
        }
        nested.l2_kernel = resolved(path);
    }
    if (const auto found = entries.find("l2_smp"); found != entries.end()) {
        nested.l2_smp = static_cast<int>(integer_of(found->second.value, "l2_smp", 1));
    }
    if (const auto found = entries.find("l2_memory"); found != entries.end()) {
        nested.l2_memory_mb = static_cast<int>(integer_of(found->second.value, "l2_memory", 64));
    }
    if (const auto found = entries.find("l2_cmdline"); found != entries.end()) {
        nested.l2_cmdline = string_value(found->second);
        if (nested.l2_cmdline.find('\'') != std::string::npos) {
            fail(found->second.value, "l2_cmdline: expected kernel parameters without \"'\"");
        }
    }
    if (const auto found = entries.find("l2_firmware"); found != entries.end()) {
        nested.l2_firmware = string_value(found->second);
        if (!contains(k_l2_firmware_modes, nested.l2_firmware)) {
            fail(found->second.value,
                 fmt::format("l2_firmware: {} is not a firmware mode (expected {})",
                             in_quotes(nested.l2_firmware), alternatives(k_l2_firmware_modes)));
        }
    }
    read_varstore(entries, nested);
    if (const auto found = entries.find("l1_probes"); found != entries.end()) {
        nested.l1_probes = choice(found->second, k_l1_probe_sets);
    }
    if (const auto found = entries.find("l2_modules"); found != entries.end()) {
        nested.l2_modules = string_list(found->second);
        for (const auto& name : nested.l2_modules) {
            if (name.empty() || name.find('/') != std::string::npos || name.ends_with(".ko")) {
                fail(found->second.value,
                     fmt::format("l2_modules: expected module names such as efivarfs, got {}",
                                 in_quotes(name)));
            }
        }
    }
}

void ExperimentReader::read_varstore(const Entries& entries, NestedSettings& nested) const {
    if (const auto found = entries.find("l2_varstore"); found != entries.end()) {
        nested.l2_varstore = string_value(found->second);
        if (!contains(k_l2_varstore_modes, nested.l2_varstore)) {
            fail(found->second.value,
                 fmt::format("l2_varstore: {} is not a variable-store mode (expected {})",
                             in_quotes(nested.l2_varstore), alternatives(k_l2_varstore_modes)));
        }
    }
    if (const auto found = entries.find("l2_varstore_live"); found != entries.end()) {
        const long long live = integer_of(found->second.value, "l2_varstore_live", 0);
        if (live > k_max_varstore_live) {
            fail(found->second.value,
                 fmt::format("l2_varstore_live: {} variables of 4 KiB do not fit the firmware's "
                             "256 KiB store with room to fill (at most {})",
                             live, k_max_varstore_live));
        }
        if (nested.l2_varstore != "full") {
            fail(found->second.value, "l2_varstore_live: only with l2_varstore: full");
        }
        nested.l2_varstore_live = static_cast<int>(live);
    }
}

void ExperimentReader::read_quiet(const Entry& entry, QuietSettings& quiet) const {
    const Entries entries = mapping(entry.value, "quiet", k_quiet_keys);
    if (const auto found = entries.find("max_load"); found != entries.end()) {
        const YAML::Node& node = found->second.value;
        const auto value = node.IsScalar() ? parse_number(node.Scalar()) : std::nullopt;
        if (!value || *value < 0 || *value > 1) {
            fail(node, fmt::format("max_load: expected a fraction of the host's CPUs from 0 to 1 "
                                   "(e.g. 0.10), got {}",
                                   value ? node.Scalar() : describe(node)));
        }
        quiet.max_load = *value;
    }
    if (const auto found = entries.find("max_wait"); found != entries.end()) {
        const YAML::Node& node = found->second.value;
        const auto value = node.IsScalar() ? parse_duration(node.Scalar()) : std::nullopt;
        if (!value) {
            fail(node, fmt::format("max_wait: expected a duration such as 90, 90s, 10m or 1h "
                                   "(0: do not wait), got {}",
                                   describe(node)));
        }
        quiet.max_wait_s = *value;
    }
    if (const auto found = entries.find("on_timeout"); found != entries.end()) {
        const std::string text = string_value(found->second);
        const auto timeout = quiet_timeout_from_string(text);
        if (!timeout) {
            const auto suggestion = did_you_mean(text, k_quiet_timeouts);
            fail(found->second.value,
                 fmt::format("on_timeout: {} is not an action ({})", in_quotes(text),
                             suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                        : "expected " + alternatives(k_quiet_timeouts)));
        }
        quiet.on_timeout = *timeout;
    }
}

// boot_seconds, a metric's name, or {geomean: PREFIX}. A metric need not be declared under
// guest.metrics (the workload may print BOOTBENCH-METRIC lines), but a name one typo away from
// a known one is taken for that typo.
Endpoint ExperimentReader::read_endpoint(const Entry& entry, const Experiment& experiment) const {
    if (entry.value.IsMap()) {
        const Entries entries = mapping(entry.value, "endpoint", k_endpoint_keys);
        const Entry& prefix = required(entries, entry.value, "endpoint", "geomean",
                                       "the items' prefix, e.g. {geomean: launch}");
        return {EndpointKind::Geomean, name_value(prefix, "metric prefix")};
    }
    const std::string name = name_value(entry, "endpoint");
    std::vector<std::string> known{"boot_seconds"};
    for (const auto& metric : experiment.guest.metrics) {
        known.push_back(metric.name);
    }
    if (name == "boot_seconds") {
        return {EndpointKind::BootSeconds, ""};
    }
    if (const auto suggestion = did_you_mean(name, known); suggestion && !contains(known, name)) {
        fail(entry.value, fmt::format("endpoint: unknown endpoint {} (did you mean {}?)",
                                      in_quotes(name), in_quotes(*suggestion)));
    }
    return {EndpointKind::Metric, name};
}

std::string ExperimentReader::choice(const Entry& entry,
                                     const std::vector<std::string>& choices) const {
    const std::string text = string_value(entry);
    if (contains(choices, text)) {
        return text;
    }
    const auto suggestion = did_you_mean(text, choices);
    fail(entry.value,
         fmt::format("{}: {} is not allowed ({})", entry.key.Scalar(), in_quotes(text),
                     suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                : "expected " + alternatives(choices)));
}

// [A, B, C]: B and C each against A. [[A, B], [A, C], [B, C]]: exactly those pairs.
std::vector<ComparedPair> ExperimentReader::read_pairs(const YAML::Node& list,
                                                       const std::string& axis,
                                                       const Experiment& experiment) const {
    const bool explicit_pairs = list.IsSequence() && list.size() > 0 && list[0].IsSequence();
    if (!list.IsSequence() || list.size() < (explicit_pairs ? 1 : 2)) {
        fail(list, fmt::format("compare: expected a list of at least two values of {} (each "
                               "against the first) or a list of pairs [A, B], got {}",
                               axis, describe(list)));
    }
    std::vector<ComparedPair> pairs;
    for (size_t i = explicit_pairs ? 0 : 1; i < list.size(); ++i) {
        const YAML::Node pair = explicit_pairs ? list[i] : YAML::Node();
        if (explicit_pairs && (!pair.IsSequence() || pair.size() != 2)) {
            fail(list[i], fmt::format("compare: expected a pair [A, B] of values of {}, got {}",
                                      axis, describe(list[i])));
        }
        const YAML::Node a = explicit_pairs ? pair[0] : list[0];
        const YAML::Node b = explicit_pairs ? pair[1] : list[i];
        ComparedPair compared{axis_value(a, axis, experiment), axis_value(b, axis, experiment)};
        if (compared.a == compared.b) {
            fail(b, fmt::format("compare: {} is compared with itself", in_quotes(compared.b)));
        }
        if (std::find(pairs.begin(), pairs.end(), compared) != pairs.end()) {
            fail(b, fmt::format("compare: {} vs {} appears twice", in_quotes(compared.a),
                                in_quotes(compared.b)));
        }
        pairs.push_back(std::move(compared));
    }
    return pairs;
}

void ExperimentReader::read_compare(const Entry& entry, const Experiment& experiment,
                                    Analysis& analysis) const {
    if (!entry.value.IsMap() || entry.value.size() != 1) {
        fail(entry.value,
             fmt::format("compare: expected one axis and its values, e.g. {{variant: "
                         "[before, fixed]}}, got {}",
                         entry.value.IsMap()
                             ? "a mapping of " + std::to_string(entry.value.size()) + " axes"
                             : describe(entry.value)));
    }
    const auto item = *entry.value.begin();
    analysis.axis = declared_axis(item.first, "compare", experiment);
    analysis.pairs = read_pairs(item.second, analysis.axis, experiment);
}

// {AXIS: [v1, v2, v3, ...]}: at least three values of one axis, in the order a trend would
// follow (the seed's phase counts, increasing).
void ExperimentReader::read_trend(const Entry& entry, const Experiment& experiment,
                                  Analysis& analysis) const {
    if (!entry.value.IsMap() || entry.value.size() != 1) {
        fail(entry.value, fmt::format("trend: expected one axis and its values in order, e.g. "
                                      "{{srcutree.srcu_max_nodelay_phase: [100, 1000, 10000]}}, "
                                      "got {}",
                                      describe(entry.value)));
    }
    const auto item = *entry.value.begin();
    analysis.axis = declared_axis(item.first, "trend", experiment);
    const YAML::Node& list = item.second;
    if (!list.IsSequence() || list.size() < 3) {
        fail(list, fmt::format("trend: expected at least three values of {} in order (two are a "
                               "comparison: compare:), got {}",
                               analysis.axis, describe(list)));
    }
    for (const auto& node : list) {
        std::string value = axis_value(node, analysis.axis, experiment);
        if (std::find(analysis.trend.begin(), analysis.trend.end(), value) !=
            analysis.trend.end()) {
            fail(node, fmt::format("trend: {} appears twice", in_quotes(value)));
        }
        analysis.trend.push_back(std::move(value));
    }
}

Analysis ExperimentReader::read_analysis(const Entry& entry, const Experiment& experiment) const {
    const Entries entries = mapping(entry.value, "analysis", k_analysis_keys);
    Analysis analysis;
    if (const auto found = entries.find("endpoint"); found != entries.end()) {
        analysis.endpoint = read_endpoint(found->second, experiment);
    }
    if (const auto trend = entries.find("trend"); trend != entries.end()) {
        if (entries.count("compare") != 0) {
            fail(trend->second.key, "trend: an analysis declares compare: or trend:, not both");
        }
        read_trend(trend->second, experiment, analysis);
    } else {
        read_compare(required(entries, entry.value, "analysis", "compare",
                              "the compared values of one axis, e.g. {variant: [before, fixed]}, "
                              "or trend: {AXIS: [v1, v2, v3]}"),
                     experiment, analysis);
    }
    if (const auto found = entries.find("paired"); found != entries.end()) {
        analysis.paired = choice(found->second, k_paired_modes) == "round";
        if (analysis.paired && analysis.is_trend()) {
            fail(found->second.value, "paired: the trend test compares independent groups "
                                      "(paired: none)");
        }
    }
    if (const auto found = entries.find("alpha"); found != entries.end()) {
        analysis.alpha = fraction_value(found->second, "a level such as 0.05");
        if (analysis.alpha >= 0.5) {
            fail(found->second.value, fmt::format("alpha: {} is not a significance level "
                                                  "(expected a number below 0.5, e.g. 0.05)",
                                                  found->second.value.Scalar()));
        }
    }
    if (const auto found = entries.find("family"); found != entries.end()) {
        analysis.family =
            choice(found->second, k_families) == "all" ? HolmFamily::All : HolmFamily::Condition;
    }
    if (const auto found = entries.find("ratio"); found != entries.end()) {
        const std::string text = choice(found->second, {"true", "false"});
        analysis.ratio = text == "true";
    }
    if (const auto found = entries.find("direction"); found != entries.end()) {
        analysis.direction =
            choice(found->second, k_directions) == "lower" ? Direction::Lower : Direction::Higher;
    }
    if (const auto found = entries.find("secondary"); found != entries.end()) {
        if (analysis.is_trend()) {
            fail(found->second.key, "secondary: endpoints are compared like the primary one "
                                    "(compare:), a trend has none");
        }
        analysis.secondary = read_secondary(found->second, experiment);
        for (const auto& secondary : analysis.secondary) {
            if (secondary.endpoint == analysis.endpoint) {
                fail(found->second.value, fmt::format("secondary: {} is the primary endpoint",
                                                      secondary.endpoint.label()));
            }
        }
        const bool margin = std::any_of(analysis.secondary.begin(), analysis.secondary.end(),
                                        [](const auto& item) { return item.within.has_value(); });
        if (margin && !analysis.ratio) {
            fail(found->second.key, "secondary: a premise's within: is a margin of the ratio "
                                    "B / A (ratio: true)");
        }
    }
    return analysis;
}

// A list of endpoints (each as `endpoint:` takes it), or of {endpoint, within} for premises.
std::vector<SecondaryEndpoint>
ExperimentReader::read_secondary(const Entry& entry, const Experiment& experiment) const {
    if (!entry.value.IsSequence() || entry.value.size() == 0) {
        fail(entry.value, fmt::format("secondary: expected a list of endpoints, e.g. [launch, "
                                      "{{endpoint: calibration_ms, within: 2%}}], got {}",
                                      describe(entry.value)));
    }
    std::vector<SecondaryEndpoint> list;
    for (const auto& node : entry.value) {
        const Entry item{entry.key, node};
        SecondaryEndpoint secondary;
        if (node.IsMap() && node["endpoint"]) {
            const Entries entries = mapping(node, "secondary", k_secondary_keys);
            secondary.endpoint = read_endpoint(entries.at("endpoint"), experiment);
            if (const auto found = entries.find("within"); found != entries.end()) {
                secondary.within = fraction_value(found->second, "a margin such as 2%");
            }
        } else {
            secondary.endpoint = read_endpoint(item, experiment);
        }
        const bool repeated = std::any_of(list.begin(), list.end(), [&](const auto& known) {
            return known.endpoint == secondary.endpoint;
        });
        if (repeated) {
            fail(node, fmt::format("secondary: {} appears twice", secondary.endpoint.label()));
        }
        list.push_back(secondary);
    }
    return list;
}

// 0 < value < 1, written as a fraction (0.02) or a percentage (2%).
double ExperimentReader::fraction_value(const Entry& entry, const std::string& expected) const {
    const YAML::Node& node = entry.value;
    std::optional<double> value;
    if (node.IsScalar()) {
        const std::string& text = node.Scalar();
        const bool percent = !text.empty() && text.back() == '%';
        value = parse_number(percent ? text.substr(0, text.size() - 1) : text);
        if (value && percent) {
            *value /= 100;
        }
    }
    if (!value || *value <= 0 || *value >= 1) {
        fail(node, fmt::format("{}: expected {} (a fraction between 0 and 1, or a percentage), "
                               "got {}",
                               entry.key.Scalar(), expected, describe(node)));
    }
    return *value;
}

// `repeats: N`, or `repeats: {min, max, until: {endpoint, ci_halfwidth}}`.
void ExperimentReader::read_repeats(const Entry& entry, Experiment& experiment) const {
    if (!entry.value.IsMap()) {
        experiment.repeats = static_cast<int>(integer_of(entry.value, "repeats", 1));
        experiment.max_repeats = experiment.repeats;
        return;
    }
    const Entries entries = mapping(entry.value, "repeats", k_repeats_keys);
    const Entry& max =
        required(entries, entry.value, "repeats", "max", "the most boots per cell, e.g. max: 30");
    const Entry& until = required(entries, entry.value, "repeats", "until",
                                  "the precision to reach, e.g. {ci_halfwidth: 2%}");
    experiment.repeats = k_min_precision_repeats;
    if (const auto found = entries.find("min"); found != entries.end()) {
        experiment.repeats = static_cast<int>(integer_of(found->second.value, "min", 1));
    }
    experiment.max_repeats =
        static_cast<int>(integer_of(max.value, "max", std::max(experiment.repeats, 1)));
    const Entries target = mapping(until.value, "until", k_until_keys);
    PrecisionTarget precision;
    if (experiment.analysis) {
        precision.endpoint = experiment.analysis->endpoint;
    }
    if (const auto found = target.find("endpoint"); found != target.end()) {
        precision.endpoint = read_endpoint(found->second, experiment);
    }
    precision.ci_halfwidth =
        fraction_value(required(target, until.value, "until", "ci_halfwidth",
                                "the relative half-width of the median's interval, e.g. 2%"),
                       "a relative half-width such as 2%");
    experiment.until = precision;
}

// The nested topology boots the built kernel as an arm64 KVM host; its settings mean nothing
// without a nested cell.
void ExperimentReader::check_topology(const Experiment& experiment, const Entries& entries) const {
    const auto& topologies = experiment.axes.topology;
    const bool nested =
        std::find(topologies.begin(), topologies.end(), Topology::Nested) != topologies.end();
    const auto settings = entries.find("nested");
    if (settings != entries.end() && !nested) {
        fail(settings->second.key, "nested: L2 settings given but no cell uses the nested "
                                   "topology (add topology: [nested] to axes)");
    }
    if (nested && experiment.kernel.arch != Arch::Arm64) {
        const YAML::Node axis = entries.at("axes").value["topology"];
        for (size_t i = 0; i < axis.size(); ++i) {
            if (axis[i].Scalar() == "nested") {
                fail(axis[i], fmt::format("topology: nested needs kernel.arch arm64 (the L1 "
                                          "hypervisor runs under -M virt,virtualization=on), "
                                          "got {}",
                                          to_string(experiment.kernel.arch)));
            }
        }
    }
}

std::vector<fs::path> ExperimentReader::read_programs(const Entry& entry) const {
    // Checked here, not when the image is built, so the error can point at the line.
    const std::vector<std::string> items = string_list(entry);
    std::vector<fs::path> programs;
    std::set<std::string> names;
    for (size_t i = 0; i < items.size(); ++i) {
        const YAML::Node& item = entry.value[i];
        const fs::path path = resolved(items[i]);
        if (path.extension() != ".c") {
            fail(item, fmt::format("programs: {} is not a C source (expected a path ending in "
                                   "\".c\", compiled statically into the guest's /bin)",
                                   in_quotes(items[i])));
        }
        if (!fs::is_regular_file(path)) {
            fail(item, fmt::format("programs: {} not found (looked for {}; relative paths start "
                                   "at the experiment file's directory)",
                                   in_quotes(items[i]), path.string()));
        }
        const std::string name = path.stem().string();
        if (!is_name(name)) {
            fail(item, fmt::format("programs: {} would be /bin/{}, not a valid program name "
                                   "(expected letters, digits, '.', '_' or '-')",
                                   in_quotes(items[i]), name));
        }
        if (!names.insert(name).second) {
            fail(item, fmt::format("programs: two programs would be /bin/{} (program names, the "
                                   "sources' stems, must be unique)",
                                   name));
        }
        programs.push_back(path);
    }
    return programs;
}

std::string ExperimentReader::declared_axis(const YAML::Node& node, const std::string& key,
                                            const Experiment& experiment) const {
    const std::string axis = string_of(node, key);
    const std::vector<std::string> declared = declared_axes(experiment);
    if (contains(declared, axis)) {
        return axis;
    }
    if (contains(builtin_axes(), axis)) {
        fail(node, fmt::format("{}: {} is not an axis of this experiment (expected one of: {})",
                               key, in_quotes(axis), comma_list(declared)));
    }
    const auto suggestion = did_you_mean(axis, declared);
    fail(node, suggestion ? fmt::format("{}: unknown axis {} (did you mean {}?)", key,
                                        in_quotes(axis), in_quotes(*suggestion))
                          : fmt::format("{}: unknown axis {} (expected one of: {})", key,
                                        in_quotes(axis), comma_list(declared)));
}

std::string ExperimentReader::axis_value(const YAML::Node& node, const std::string& axis,
                                         const Experiment& experiment) const {
    static const std::set<std::string> integer_axes{"hz", "smp", "memory"};
    if (!node.IsScalar()) {
        fail(node, fmt::format("{}: expected one value of the {} axis, got {}", axis, axis,
                               describe(node)));
    }
    const bool integer = integer_axes.count(axis) != 0;
    const std::string value = integer ? std::to_string(integer_of(node, axis, 1)) : node.Scalar();
    const std::vector<std::string> values = axis_values(experiment, axis);
    if (!contains(values, value)) {
        const auto suggestion = integer ? std::nullopt : did_you_mean(value, values);
        fail(node, fmt::format("{}: {} is not a value of the {} axis ({})", axis,
                               integer ? value : in_quotes(value), axis,
                               suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                          : "expected " + alternatives(values)));
    }
    return value;
}

std::vector<CellRule> ExperimentReader::read_rules(const Entry& entry,
                                                   const Experiment& experiment) const {
    const std::string& key = entry.key.Scalar();
    if (!entry.value.IsSequence()) {
        fail(entry.value, fmt::format("{}: expected a list of mappings such as {{variant: stock, "
                                      "hz: 250}}, got {}",
                                      key, describe(entry.value)));
    }
    std::vector<CellRule> rules;
    for (const auto& item : entry.value) {
        if (!item.IsMap() || item.size() == 0) {
            fail(item, fmt::format("{}: expected a mapping of axes to values such as {{variant: "
                                   "stock, hz: 250}}, got {}",
                                   key, item.IsMap() ? "an empty mapping" : describe(item)));
        }
        CellRule rule;
        for (const auto& pair : item) {
            const std::string axis = declared_axis(pair.first, key, experiment);
            if (rule.count(axis) != 0) {
                fail(pair.first, fmt::format("duplicate key {}", in_quotes(axis)));
            }
            rule.emplace(axis, axis_value(pair.second, axis, experiment));
        }
        rules.push_back(std::move(rule));
    }
    return rules;
}

Experiment ExperimentReader::read(const YAML::Node& root) {
    if (root.IsNull()) {
        fail(root, "the experiment is empty (expected at least name and kernel.arch)");
    }
    if (!root.IsMap()) {
        fail(root, fmt::format("expected a mapping of experiment keys ({}), got {}",
                               comma_list(k_top_keys), describe(root)));
    }
    const Entries entries = mapping(root, "", k_top_keys);
    Experiment experiment;
    experiment.file_name = file();
    experiment.directory = m_directory;
    experiment.name = name_value(
        required(entries, root, "", "name", "the experiment's name, e.g. name: srcu-phase"),
        "experiment name");
    if (const auto found = entries.find("description"); found != entries.end()) {
        experiment.description = string_value(found->second);
    }
    read_kernel(required(entries, root, "", "kernel", "a mapping with at least arch"),
                experiment.kernel);
    if (const auto found = entries.find("axes"); found != entries.end()) {
        read_axes(found->second, experiment.axes);
    }
    if (const auto found = entries.find("guest"); found != entries.end()) {
        read_guest(found->second, experiment.guest);
    }
    if (const auto found = entries.find("nested"); found != entries.end()) {
        read_nested(found->second, experiment.nested);
    }
    check_topology(experiment, entries);
    if (const auto found = entries.find("timeout"); found != entries.end()) {
        experiment.timeout_s = seconds_value(found->second);
    }
    if (const auto found = entries.find("silence"); found != entries.end()) {
        experiment.silence_s = seconds_value(found->second);
    }
    if (const auto found = entries.find("order"); found != entries.end()) {
        const std::string order = string_value(found->second);
        if (order != "shuffled" && order != "sequential") {
            fail(found->second.value,
                 fmt::format("order: {} is not an order (expected shuffled or sequential)",
                             in_quotes(order)));
        }
        experiment.order = order == "shuffled" ? RunOrder::Shuffled : RunOrder::Sequential;
    }
    if (const auto found = entries.find("seed"); found != entries.end()) {
        const YAML::Node& node = found->second.value;
        const auto seed = node.IsScalar() ? parse_integer<std::uint64_t>(node.Scalar())
                                          : std::optional<std::uint64_t>();
        if (!seed) {
            fail(node,
                 fmt::format("seed: expected a non-negative integer, got {}", describe(node)));
        }
        experiment.seed = seed;
    }
    if (const auto found = entries.find("hosts"); found != entries.end()) {
        experiment.hosts = parse_hosts(found->second.value, file());
    }
    if (const auto found = entries.find("quiet"); found != entries.end()) {
        read_quiet(found->second, experiment.quiet);
    }
    // The analysis before repeats: `until` defaults to its endpoint.
    if (const auto found = entries.find("analysis"); found != entries.end()) {
        experiment.analysis = read_analysis(found->second, experiment);
    }
    if (const auto found = entries.find("repeats"); found != entries.end()) {
        read_repeats(found->second, experiment);
    }
    // The matrix is expanded in memory, one entry per boot: a slip such as `repeats: 50000000`
    // must be an error here, not an exhausted machine later.
    const double samples = matrix_size(experiment) * experiment.max_repeats;
    if (samples > k_max_samples) {
        const auto repeats = entries.find("repeats");
        const auto axes = entries.find("axes");
        const YAML::Node& culprit = repeats != entries.end() ? repeats->second.key
                                    : axes != entries.end()  ? axes->second.key
                                                             : root;
        fail(culprit,
             fmt::format("the matrix has {:.0f} cells x {} repeats = {:.3g} boots, more "
                         "than one experiment may hold ({}); split it",
                         matrix_size(experiment), experiment.max_repeats, samples, k_max_samples));
    }
    // Rules last: they refer to the variants and axes read above.
    const auto include = entries.find("include");
    if (include != entries.end()) {
        experiment.include = read_rules(include->second, experiment);
    }
    const auto exclude = entries.find("exclude");
    if (exclude != entries.end()) {
        experiment.exclude = read_rules(exclude->second, experiment);
    }
    if ((include != entries.end() || exclude != entries.end()) &&
        expand_matrix(experiment).empty()) {
        const Entry& culprit = exclude != entries.end() ? exclude->second : include->second;
        fail(culprit.key, fmt::format("{}: no cell is left to run (every cell is excluded or not "
                                      "included)",
                                      culprit.key.Scalar()));
    }
    return experiment;
}

fs::path directory_of(const std::string& file_name) {
    const fs::path parent = fs::path(file_name).parent_path();
    return (parent.empty() ? fs::current_path() : fs::absolute(parent)).lexically_normal();
}

} // namespace

Experiment parse_experiment(std::string_view text, const std::string& file_name) {
    ExperimentReader reader(file_name, directory_of(file_name));
    const YAML::Node root = reader.load(text, "an experiment");
    Experiment experiment = reader.read(root);
    experiment.text = std::string(text);
    return experiment;
}

Experiment load_experiment(const fs::path& path) {
    std::error_code ignored;
    if (fs::is_directory(path, ignored)) {
        throw Error(fmt::format("cannot read experiment {}: it is a directory (expected a YAML "
                                "file)",
                                path.string()));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(
            fmt::format("cannot read experiment {}: {}", path.string(), std::strerror(errno)));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_experiment(text.str(), path.string());
}

} // namespace bb
