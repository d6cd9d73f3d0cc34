#include "experiment/matrix.h"

#include "util/error.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <random>
#include <set>

namespace bb {

namespace fs = std::filesystem;

namespace {

// '\' and ';' escaped so that no value can forge a key separator: cell keys stay injective.
std::string escape_key_value(const std::string& value) {
    std::string escaped;
    for (char c : value) {
        if (c == '\\' || c == ';') {
            escaped += '\\';
        }
        escaped += c;
    }
    return escaped;
}

// A cmdline value that is a plain decimal integer becomes a JSON number (so reports sort
// 100 < 1000 numerically); anything else, including "007" or "1e3", stays the text written.
nlohmann::json param_json(const std::string& text) {
    long long number = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, number);
    if (ec == std::errc() && ptr == end && std::to_string(number) == text) {
        return number;
    }
    return text;
}

std::optional<std::string> resolved_firmware(const Experiment& experiment,
                                             const std::string& written) {
    if (written == "none") {
        return std::nullopt;
    }
    if (written.find('/') == std::string::npos) {
        return written; // a well-known name, resolved by vm/firmware
    }
    const fs::path path(written);
    return (path.is_absolute() ? path : experiment.directory / path).lexically_normal().string();
}

std::string joined_cmdline(const std::vector<std::string>& parts) {
    std::string line;
    for (const auto& part : parts) {
        if (part.empty()) {
            continue;
        }
        line += line.empty() ? "" : " ";
        line += part;
    }
    return line;
}

KernelBuildSpec build_spec(const Experiment& experiment, const Variant& variant,
                           std::optional<int> hz) {
    const KernelSettings& kernel = experiment.kernel;
    KernelBuildSpec build;
    build.variant = variant.name;
    build.arch = kernel.arch;
    build.source = kernel.source;
    build.base = kernel.base;
    build.fragments = kernel.fragments;
    build.fragments.insert(build.fragments.end(), variant.fragments.begin(),
                           variant.fragments.end());
    build.preempt = kernel.preempt;
    build.set = kernel.set;
    build.set.insert(build.set.end(), variant.set.begin(), variant.set.end());
    build.patches = variant.patches;
    build.hz = hz;
    return build;
}

bool matches(const CellRule& rule, const std::map<std::string, std::string>& assignment) {
    return std::all_of(rule.begin(), rule.end(), [&assignment](const auto& entry) {
        const auto found = assignment.find(entry.first);
        return found != assignment.end() && found->second == entry.second;
    });
}

// Axis sizes in product order (the last one varies fastest); an undeclared axis counts once.
struct Dimensions {
    explicit Dimensions(const Experiment& experiment) {
        const Axes& axes = experiment.axes;
        const auto at_least_one = [](size_t size) { return std::max<size_t>(1, size); };
        sizes = {experiment.kernel.variants.size(),  at_least_one(axes.hz.size()),
                 at_least_one(axes.smp.size()),      at_least_one(axes.memory_mb.size()),
                 at_least_one(axes.firmware.size()), at_least_one(axes.machine.size()),
                 at_least_one(axes.cpu.size()),      at_least_one(axes.topology.size())};
        for (const auto& parameter : axes.cmdline) {
            sizes.push_back(parameter.values.size());
        }
    }
    size_t total() const {
        size_t product = 1;
        for (size_t size : sizes) {
            product *= size;
        }
        return product;
    }
    std::vector<size_t> sizes;
};

} // namespace

std::string build_id(const KernelBuildSpec& build) {
    nlohmann::json patches = nlohmann::json::array();
    for (const auto& patch : build.patches) {
        patches.push_back(patch.string());
    }
    // nlohmann's default object keeps keys sorted: the dump is canonical.
    const nlohmann::json description{
        {"variant", build.variant},
        {"arch", std::string(to_string(build.arch))},
        {"source", build.source},
        {"base", build.base},
        {"fragments", build.fragments},
        {"preempt", build.preempt ? nlohmann::json(*build.preempt) : nlohmann::json()},
        {"set", build.set},
        {"patches", patches},
        {"hz", build.hz ? nlohmann::json(*build.hz) : nlohmann::json()}};
    return description.dump();
}

namespace {

// One point of the matrix before the include/exclude rules: the cell's values, and each
// declared axis as (name, canonical text) for the key, the params and the rules.
struct CellDraft {
    Cell cell;
    std::vector<std::pair<std::string, std::string>> assigned;
    nlohmann::json params = nlohmann::json::object();

    void assign(const std::string& axis, const std::string& text, nlohmann::json value) {
        assigned.emplace_back(axis, text);
        params[axis] = std::move(value);
    }
};

// The built-in axes at odometer position `index` (variant first, then hz, smp, memory,
// firmware, machine, cpu, topology).
void assign_builtin_axes(const Experiment& experiment, const std::vector<size_t>& index,
                         CellDraft& draft) {
    const Axes& axes = experiment.axes;
    Cell& cell = draft.cell;
    cell.variant = experiment.kernel.variants[index[0]].name;
    draft.assign("variant", cell.variant, cell.variant);
    if (!axes.hz.empty()) {
        cell.hz = axes.hz[index[1]];
        draft.assign("hz", std::to_string(*cell.hz), *cell.hz);
    }
    if (!axes.smp.empty()) {
        cell.smp = axes.smp[index[2]];
        draft.assign("smp", std::to_string(*cell.smp), *cell.smp);
    }
    if (!axes.memory_mb.empty()) {
        cell.memory_mb = axes.memory_mb[index[3]];
        draft.assign("memory", std::to_string(*cell.memory_mb), *cell.memory_mb);
    }
    if (!axes.firmware.empty()) {
        const std::string& written = axes.firmware[index[4]];
        cell.firmware = resolved_firmware(experiment, written);
        draft.assign("firmware", written, written);
    }
    if (!axes.machine.empty()) {
        cell.machine = axes.machine[index[5]];
        draft.assign("machine", cell.machine, cell.machine);
    }
    if (!axes.cpu.empty()) {
        cell.cpu = axes.cpu[index[6]];
        draft.assign("cpu", cell.cpu, cell.cpu);
    }
    if (!axes.topology.empty()) {
        cell.topology = axes.topology[index[7]];
        const std::string text(to_string(cell.topology));
        draft.assign("topology", text, text);
    }
}

// The command-line parameter axes, and the whole command line they make with the guest's and
// the variant's.
void assign_cmdline_axes(const Experiment& experiment, const std::vector<size_t>& index,
                         CellDraft& draft) {
    const Variant& variant = experiment.kernel.variants[index[0]];
    std::vector<std::string> cmdline_parts{experiment.guest.cmdline, variant.cmdline};
    for (size_t p = 0; p < experiment.axes.cmdline.size(); ++p) {
        const CmdlineAxis& parameter = experiment.axes.cmdline[p];
        const std::string& value = parameter.values[index[8 + p]];
        draft.cell.cmdline_params.emplace_back(parameter.parameter, value);
        cmdline_parts.push_back(parameter.parameter + "=" + value);
        draft.assign(parameter.parameter, value, param_json(value));
    }
    draft.cell.cmdline = joined_cmdline(cmdline_parts);
}

bool selected_by_rules(const Experiment& experiment, const CellDraft& draft) {
    const std::map<std::string, std::string> assignment(draft.assigned.begin(),
                                                        draft.assigned.end());
    const auto matching = [&assignment](const CellRule& rule) { return matches(rule, assignment); };
    const bool included =
        experiment.include.empty() ||
        std::any_of(experiment.include.begin(), experiment.include.end(), matching);
    return included && std::none_of(experiment.exclude.begin(), experiment.exclude.end(), matching);
}

// The cell's key, its kernel and the kernel's id.
Cell finished_cell(const Experiment& experiment, const Variant& variant, CellDraft draft) {
    // Built-in axes keep their canonical order; parameters are sorted so that reordering them
    // in the file does not change any key.
    const size_t builtin_count = draft.assigned.size() - experiment.axes.cmdline.size();
    std::sort(draft.assigned.begin() + static_cast<std::ptrdiff_t>(builtin_count),
              draft.assigned.end());
    Cell cell = std::move(draft.cell);
    for (const auto& [axis, text] : draft.assigned) {
        cell.cell_key += (cell.cell_key.empty() ? "" : ";") + axis + "=" + escape_key_value(text);
    }
    cell.build = build_spec(experiment, variant, cell.hz);
    if (cell.topology == Topology::Nested) {
        // The kernel under test is L1: a KVM host that counts calls with kprobes.
        // Listed by the experiment already: the same kernel serves plain guest cells.
        if (std::find(cell.build.fragments.begin(), cell.build.fragments.end(),
                      k_nested_l1_fragment) == cell.build.fragments.end()) {
            cell.build.fragments.emplace_back(k_nested_l1_fragment);
        }
    }
    cell.build_id = build_id(cell.build);
    cell.params = std::move(draft.params);
    return cell;
}

// Odometer step: the last axis varies fastest.
void advance(std::vector<size_t>& index, const std::vector<size_t>& sizes) {
    for (size_t d = index.size(); d-- > 0;) {
        if (++index[d] < sizes[d]) {
            return;
        }
        index[d] = 0;
    }
}

} // namespace

std::vector<Cell> expand_matrix(const Experiment& experiment) {
    const Dimensions dimensions(experiment);
    std::vector<Cell> cells;
    std::vector<size_t> index(dimensions.sizes.size(), 0);
    for (size_t n = 0; n < dimensions.total(); ++n, advance(index, dimensions.sizes)) {
        CellDraft draft;
        assign_builtin_axes(experiment, index, draft);
        assign_cmdline_axes(experiment, index, draft);
        if (selected_by_rules(experiment, draft)) {
            cells.push_back(
                finished_cell(experiment, experiment.kernel.variants[index[0]], std::move(draft)));
        }
    }
    return cells;
}

std::vector<std::string> distinct_builds(const std::vector<Cell>& cells) {
    std::vector<std::string> builds;
    std::set<std::string> seen;
    for (const auto& cell : cells) {
        if (seen.insert(cell.build_id).second) {
            builds.push_back(cell.build_id);
        }
    }
    return builds;
}

namespace {
// Uniform in [0, bound) by rejection: std::uniform_int_distribution is implementation-defined,
// which would make a recorded seed replay differently under another standard library.
std::uint64_t bounded(std::mt19937_64& engine, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound; // 2^64 mod bound
    for (;;) {
        const std::uint64_t draw = engine();
        if (draw >= threshold) {
            return draw % bound;
        }
    }
}
} // namespace

std::vector<std::pair<size_t, int>> schedule_order(const std::vector<Cell>& cells, int repeats,
                                                   std::uint64_t seed, bool shuffled) {
    std::vector<std::pair<size_t, int>> order;
    if (repeats <= 0 || cells.empty()) {
        return order;
    }
    order.reserve(cells.size() * static_cast<size_t>(repeats));
    std::mt19937_64 engine(seed);
    std::vector<size_t> round(cells.size());
    for (int repeat = 0; repeat < repeats; ++repeat) {
        for (size_t i = 0; i < round.size(); ++i) {
            round[i] = i;
        }
        if (shuffled) {
            for (size_t i = round.size() - 1; i > 0; --i) {
                std::swap(round[i], round[bounded(engine, i + 1)]);
            }
        }
        for (size_t cell : round) {
            order.emplace_back(cell, repeat);
        }
    }
    return order;
}

AxisRestriction parse_axis_restrictions(const std::vector<std::string>& specs) {
    AxisRestriction only;
    for (const auto& spec : specs) {
        const auto equals = spec.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size()) {
            throw Error("--only " + spec + ": expected AXIS=VALUE[,VALUE...], e.g. hz=100,250");
        }
        std::vector<std::string> values;
        std::string_view rest = std::string_view(spec).substr(equals + 1);
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            values.emplace_back(rest.substr(0, comma));
            rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        }
        only.emplace_back(spec.substr(0, equals), std::move(values));
    }
    return only;
}

std::vector<Cell> restrict_cells(const Experiment& experiment, std::vector<Cell> cells,
                                 const AxisRestriction& only) {
    for (const auto& [axis, values] : only) {
        const std::vector<std::string> declared = axis_values(experiment, axis);
        if (declared.empty()) {
            throw Error(fmt::format("--only {}: the experiment has no axis '{}' (axes: {})", axis,
                                    axis, fmt::join(declared_axes(experiment), ", ")));
        }
        for (const auto& value : values) {
            if (std::find(declared.begin(), declared.end(), value) == declared.end()) {
                throw Error(fmt::format("--only {}={}: '{}' is not a value of {} (values: {})",
                                        axis, value, value, axis, fmt::join(declared, ", ")));
            }
        }
        std::erase_if(cells, [&, &axis = axis, &values = values](const Cell& cell) {
            const auto found = cell.params.find(axis);
            if (found == cell.params.end()) {
                return true;
            }
            const std::string text = found->is_string() ? found->get<std::string>() : found->dump();
            return std::find(values.begin(), values.end(), text) == values.end();
        });
    }
    return cells;
}

} // namespace bb
