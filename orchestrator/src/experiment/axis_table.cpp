#include "experiment/axis_table.h"

#include "experiment/matrix.h"
#include "kernel/kconfig.h"

#include <algorithm>
#include <fmt/format.h>

namespace bb {

namespace fs = std::filesystem;

namespace {

int integer_value(const AxisLiteral& value) {
    return static_cast<int>(std::get<long long>(value));
}

std::vector<AxisLiteral> hz_vocabulary() {
    return {k_hz_choices.begin(), k_hz_choices.end()};
}

std::vector<AxisLiteral> topology_vocabulary() {
    return {std::string(to_string(Topology::Guest)), std::string(to_string(Topology::Nested))};
}

// A path is taken from the experiment's directory; a bare name is resolved by vm/firmware.
void place_firmware(const Experiment& experiment, const AxisLiteral& value, Cell& cell) {
    const std::string& written = std::get<std::string>(value);
    if (written == "none") {
        cell.firmware.reset();
    } else if (written.find('/') == std::string::npos) {
        cell.firmware = written;
    } else {
        const fs::path path(written);
        cell.firmware =
            (path.is_absolute() ? path : experiment.directory / path).lexically_normal().string();
    }
}

// The kernel under test is L1: a KVM host that counts calls with kprobes. An experiment may
// list the fragment itself, so that one kernel serves its guest cells too.
void place_topology(const Experiment& /*experiment*/, const AxisLiteral& value, Cell& cell) {
    cell.topology = *topology_from_string(std::get<std::string>(value));
    auto& fragments = cell.build.fragments;
    if (cell.topology == Topology::Nested &&
        std::find(fragments.begin(), fragments.end(), k_nested_l1_fragment) == fragments.end()) {
        fragments.emplace_back(k_nested_l1_fragment);
    }
}

const std::vector<BuiltinAxis> k_builtin_axes{
    {.name = "hz",
     .kind = AxisKind::Integer,
     .vocabulary = hz_vocabulary,
     .noun = "a Kconfig HZ choice",
     .when_absent = "whatever base and fragments give",
     .build = "sets CONFIG_HZ: a kernel per value",
     .reaches = "the kernel's tick rate",
     .place = [](const Experiment&, const AxisLiteral& value,
                 Cell& cell) { cell.build.hz = integer_value(value); }},
    {.name = "smp",
     .kind = AxisKind::Integer,
     .maximum = k_max_vcpus,
     .values = "integers 1 to 512 (vCPUs; qemu's virt machine takes 512)",
     .when_absent = "2",
     .reaches = "qemu -smp",
     .place = [](const Experiment&, const AxisLiteral& value,
                 Cell& cell) { cell.smp = integer_value(value); }},
    {.name = "memory",
     .kind = AxisKind::Integer,
     .maximum = 1 << 20,
     .values = "integers 1 to 1048576 (MiB)",
     .when_absent = "1024",
     .reaches = "qemu -m",
     .place = [](const Experiment&, const AxisLiteral& value,
                 Cell& cell) { cell.memory_mb = integer_value(value); }},
    {.name = "firmware",
     .values = "a known name (QEMU_EFI.fd, OVMF.fd, ...), a path, or none",
     .when_absent = "no -bios",
     .reaches = "qemu -bios",
     .place = place_firmware},
    {.name = "machine",
     .values = "qemu -M strings, e.g. virt,acpi=off",
     .when_absent = "the arch's default (virt, q35)",
     .reaches = "qemu -M",
     .place = [](const Experiment&, const AxisLiteral& value,
                 Cell& cell) { cell.machine = std::get<std::string>(value); }},
    {.name = "cpu",
     .values = "qemu -cpu strings",
     .when_absent = "max",
     .reaches = "qemu -cpu",
     .place = [](const Experiment&, const AxisLiteral& value,
                 Cell& cell) { cell.cpu = std::get<std::string>(value); }},
    {.name = "topology",
     .vocabulary = topology_vocabulary,
     .noun = "a topology",
     .when_absent = "guest",
     .build = "nested: + the arm64-kvm-host fragment",
     .reaches = "guest: the kernel's own boot is timed; nested: it hosts the timed L2",
     .place = place_topology},
    // Last, so that cell keys of files without it stay as they were.
    {.name = "l2_queues",
     .kind = AxisKind::Integer,
     .values = "integers >= 1 (queues; needs a device that takes them in nested.l2_devices)",
     .when_absent = "qemu's default (one per L2 vCPU)",
     .reaches = "nested: num-queues of L2's virtio-blk-pci (virtio-net-pci's hubport has one "
                "queue pair)",
     .place = [](const Experiment&, const AxisLiteral& value,
                 Cell& cell) { cell.l2_queues = integer_value(value); }},
};

// `cmdline` is listed second, where the documentation has always had it.
constexpr size_t k_cmdline_position = 1;
constexpr std::string_view k_cmdline_values = "mapping: kernel parameter -> list of values";

std::string values_text(const BuiltinAxis& axis, bool markdown) {
    const std::vector<std::string> texts = vocabulary_texts(axis);
    if (texts.empty()) {
        return std::string(axis.values);
    }
    std::string text;
    for (size_t i = 0; i < texts.size(); ++i) {
        text += i == 0 ? "" : (markdown ? ", " : (i + 1 == texts.size() ? " or " : ", "));
        text += markdown ? "`" + texts[i] + "`" : texts[i];
    }
    return text;
}

} // namespace

const std::vector<BuiltinAxis>& builtin_axis_table() {
    return k_builtin_axes;
}

const BuiltinAxis* find_builtin_axis(std::string_view name) {
    const auto found = std::find_if(k_builtin_axes.begin(), k_builtin_axes.end(),
                                    [name](const BuiltinAxis& axis) { return axis.name == name; });
    return found == k_builtin_axes.end() ? nullptr : &*found;
}

const std::vector<std::string>& axes_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> names;
        for (const auto& axis : k_builtin_axes) {
            names.emplace_back(axis.name);
        }
        names.insert(names.begin() + k_cmdline_position, "cmdline");
        return names;
    }();
    return keys;
}

std::vector<std::string> vocabulary_texts(const BuiltinAxis& axis) {
    std::vector<std::string> texts;
    if (axis.vocabulary != nullptr) {
        for (const auto& value : axis.vocabulary()) {
            texts.push_back(literal_text(value));
        }
    }
    return texts;
}

std::string axes_help_text() {
    std::string text = "Axes (the file's axes: key; a cell takes one value of each):\n";
    for (size_t i = 0; i < k_builtin_axes.size(); ++i) {
        const BuiltinAxis& axis = k_builtin_axes[i];
        if (i == k_cmdline_position) {
            text += fmt::format("  {:<9} {}; appended to the kernel command line\n", "cmdline",
                                k_cmdline_values);
        }
        text += fmt::format("  {:<9} {}; {}{}\n", axis.name, values_text(axis, false), axis.reaches,
                            axis.build.empty() ? "" : fmt::format(" ({})", axis.build));
    }
    return text;
}

std::string axes_markdown_table() {
    std::string table = "| key | values | when absent | reaches the boot | changes the build |\n"
                        "|---|---|---|---|---|\n";
    for (size_t i = 0; i < k_builtin_axes.size(); ++i) {
        const BuiltinAxis& axis = k_builtin_axes[i];
        if (i == k_cmdline_position) {
            table += fmt::format("| `cmdline` | {} | none | the kernel command line | no |\n",
                                 k_cmdline_values);
        }
        table +=
            fmt::format("| `{}` | {} | {} | {} | {} |\n", axis.name, values_text(axis, true),
                        axis.when_absent, axis.reaches, axis.build.empty() ? "no" : axis.build);
    }
    return table;
}

} // namespace bb
