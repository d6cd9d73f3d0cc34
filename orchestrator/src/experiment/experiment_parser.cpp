#include "experiment/experiment_parser.h"

#include "experiment/experiment_reader.h"
#include "util/did_you_mean.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace bb {

namespace fs = std::filesystem;

namespace experiment_reading {

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
    // A day: no boot bootbench times comes near it, and 1e300 s is not a limit but a typo.
    constexpr double k_max_seconds = 86400;
    if (*value <= 0 || *value > k_max_seconds) {
        fail(entry.value, fmt::format("{}: expected a number of seconds > 0 and <= {:g}, got {}",
                                      key, k_max_seconds, entry.value.Scalar()));
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

void ExperimentReader::check_topology(const Experiment& experiment, const Entries& entries) const {
    const bool nested = contains(axis_values(experiment, "topology"), to_string(Topology::Nested));
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

// `trace: initcalls` (or a list of it): what the guest records beyond its boot time. Only
// initcalls exists; a name this bootbench does not know is an error, not a silent no-op.
bool ExperimentReader::read_trace(const Entry& entry) const {
    const YAML::Node& node = entry.value;
    const std::vector<std::string> names =
        node.IsScalar() ? std::vector<std::string>{node.Scalar()} : string_list(entry);
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] != "initcalls") {
            fail(node.IsScalar() ? node : node[i],
                 fmt::format("trace: {} is not a trace (expected initcalls: per-initcall times "
                             "from initcall_debug, docs/experiments.md#trace){}",
                             in_quotes(names[i]), did_you_mean_note(names[i], {"initcalls"})));
        }
    }
    return !names.empty();
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
    check_l2_queues(experiment, entries);
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
    if (const auto found = entries.find("trace"); found != entries.end()) {
        experiment.trace_initcalls = read_trace(found->second);
    }
    // The analysis before repeats: `until` defaults to its endpoint.
    if (const auto found = entries.find("analysis"); found != entries.end()) {
        experiment.analysis = read_analysis(found->second, experiment);
    }
    if (const auto found = entries.find("repeats"); found != entries.end()) {
        read_repeats(found->second, experiment);
    }
    if (const auto found = entries.find("warmup"); found != entries.end()) {
        experiment.warmup =
            static_cast<int>(integer_of(found->second.value, "warmup", 0, k_max_warmup));
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

} // namespace experiment_reading

namespace {

fs::path directory_of(const std::string& file_name) {
    const fs::path parent = fs::path(file_name).parent_path();
    return (parent.empty() ? fs::current_path() : fs::absolute(parent)).lexically_normal();
}

} // namespace

Experiment parse_experiment(std::string_view text, const std::string& file_name) {
    experiment_reading::ExperimentReader reader(file_name, directory_of(file_name));
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