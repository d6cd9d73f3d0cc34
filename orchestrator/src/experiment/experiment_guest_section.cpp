// The `guest:`, `nested:` and `quiet:` sections: workload, programs, markers, metrics, L2,
// varstore, L2's devices, the quiet-host gate.
#include "experiment/experiment_reader.h"
#include "guest/l2_devices.h"

namespace bb::experiment_reading {

namespace {
constexpr size_t k_max_cmdline_bytes = 2048; // arm64's COMMAND_LINE_SIZE
constexpr size_t k_max_l2_devices = 16;
} // namespace

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
        nested.l2_smp = static_cast<int>(integer_of(found->second.value, "l2_smp", 1, k_max_vcpus));
    }
    if (const auto found = entries.find("l2_memory"); found != entries.end()) {
        nested.l2_memory_mb =
            static_cast<int>(integer_of(found->second.value, "l2_memory", 64, 1 << 20));
    }
    if (const auto found = entries.find("l2_cmdline"); found != entries.end()) {
        nested.l2_cmdline = string_value(found->second);
        if (nested.l2_cmdline.find('\'') != std::string::npos) {
            fail(found->second.value, "l2_cmdline: expected kernel parameters without \"'\"");
        }
        // What the L2 kernel can take: arm64's COMMAND_LINE_SIZE, on one line.
        if (nested.l2_cmdline.size() > k_max_cmdline_bytes) {
            fail(found->second.value, fmt::format("l2_cmdline: {} bytes, more than the {} an arm64 "
                                                  "kernel command line holds",
                                                  nested.l2_cmdline.size(), k_max_cmdline_bytes));
        }
        if (std::any_of(nested.l2_cmdline.begin(), nested.l2_cmdline.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
            fail(found->second.value, fmt::format("l2_cmdline: expected one line of kernel "
                                                  "parameters, got a control character in {}",
                                                  in_quotes(nested.l2_cmdline.substr(0, 60))));
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
    if (const auto found = entries.find("l2_devices"); found != entries.end()) {
        read_l2_devices(found->second, nested);
    }
}

void ExperimentReader::read_l2_devices(const Entry& entry, NestedSettings& nested) const {
    // An empty list is allowed: it says "no devices" as explicitly as leaving the key out. A
    // name may repeat: each copy is one more device (and one more set of registrations).
    if (!entry.value.IsSequence()) {
        fail(entry.value, fmt::format("l2_devices: expected a list of devices ({}), got {}",
                                      alternatives(l2_device_names()), describe(entry.value)));
    }
    // Each is a PCI device of L2's: a few make the experiments; thousands only slow validation
    // and launch down before qemu refuses them.
    if (entry.value.size() > k_max_l2_devices) {
        fail(entry.value, fmt::format("l2_devices: {} devices, more than the {} bootbench gives "
                                      "an L2 guest",
                                      entry.value.size(), k_max_l2_devices));
    }
    const std::vector<std::string> known = l2_device_names();
    for (const auto& item : entry.value) {
        const std::string name = string_of(item, "l2_devices");
        if (!contains(known, name)) {
            const auto suggestion = did_you_mean(name, known);
            fail(item,
                 fmt::format("l2_devices: {} is not an L2 device ({})", in_quotes(name),
                             suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                        : "expected " + alternatives(known)));
        }
        nested.l2_devices.push_back(name);
    }
}

// `l2_queues` sets num-queues on the devices that take it; with none of them it would change
// nothing but the cell key, and cells measured alike would look like a comparison.
void ExperimentReader::check_l2_queues(const Experiment& experiment, const Entries& entries) const {
    const auto* queues = experiment.axes.find("l2_queues");
    if (queues == nullptr) {
        return;
    }
    const YAML::Node axis = entries.at("axes").value["l2_queues"];
    const std::vector<std::string> takers = l2_queue_device_names();
    const auto& devices = experiment.nested.l2_devices;
    if (std::none_of(devices.begin(), devices.end(),
                     [&takers](const std::string& device) { return contains(takers, device); })) {
        fail(axis, fmt::format("l2_queues: no device of nested.l2_devices takes queues (add {} "
                               "to nested.l2_devices; virtio-net-pci's backend has one queue "
                               "pair)",
                               alternatives(takers)));
    }
    for (size_t i = 0; i < queues->size(); ++i) {
        if (std::get<long long>((*queues)[i]) > k_max_l2_queues) {
            fail(axis[i], fmt::format("l2_queues: {} queues is more than a virtio device has "
                                      "(at most {})",
                                      std::get<long long>((*queues)[i]), k_max_l2_queues));
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

} // namespace bb::experiment_reading
