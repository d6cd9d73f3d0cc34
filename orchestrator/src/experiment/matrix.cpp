#include "experiment/matrix.h"

#include "experiment/axis_table.h"
#include "util/did_you_mean.h"
#include "util/error.h"
#include "util/seeded_shuffle.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <random>
#include <set>

namespace bb {

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

// The variant's kernel before any axis: an axis that changes the build (hz, topology) adds to
// it when it places its value.
KernelBuildSpec build_spec(const Experiment& experiment, const Variant& variant) {
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
    return build;
}

bool matches(const CellRule& rule, const std::map<std::string, std::string>& assignment) {
    return std::all_of(rule.begin(), rule.end(), [&assignment](const auto& entry) {
        const auto found = assignment.find(entry.first);
        return found != assignment.end() && found->second == entry.second;
    });
}

// Axis sizes in product order (the last one varies fastest): the variants, the built-in axes in
// table order, then the cmdline parameters; an undeclared axis counts once.
struct Dimensions {
    explicit Dimensions(const Experiment& experiment) {
        sizes.push_back(experiment.kernel.variants.size());
        for (const auto& axis : builtin_axis_table()) {
            const auto* values = experiment.axes.find(axis.name);
            sizes.push_back(values == nullptr ? 1 : values->size());
        }
        for (const auto& parameter : experiment.axes.cmdline) {
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

// The variant and the built-in axes at odometer position `index` (in Dimensions' order).
void assign_builtin_axes(const Experiment& experiment, const std::vector<size_t>& index,
                         CellDraft& draft) {
    const Variant& variant = experiment.kernel.variants[index[0]];
    draft.cell.variant = variant.name;
    draft.cell.build = build_spec(experiment, variant);
    draft.assign("variant", variant.name, variant.name);
    const auto& table = builtin_axis_table();
    for (size_t a = 0; a < table.size(); ++a) {
        const auto* values = experiment.axes.find(table[a].name);
        if (values != nullptr) {
            const AxisLiteral& value = (*values)[index[1 + a]];
            table[a].place(experiment, value, draft.cell);
            draft.assign(std::string(table[a].name), literal_text(value), literal_json(value));
        }
    }
}

// The command-line parameter axes, and the whole command line they make with the guest's and
// the variant's.
void assign_cmdline_axes(const Experiment& experiment, const std::vector<size_t>& index,
                         CellDraft& draft) {
    const Variant& variant = experiment.kernel.variants[index[0]];
    std::vector<std::string> cmdline_parts{experiment.guest.cmdline, variant.cmdline};
    if (experiment.trace_initcalls) {
        cmdline_parts.emplace_back("initcall_debug");
    }
    for (size_t p = 0; p < experiment.axes.cmdline.size(); ++p) {
        const CmdlineAxis& parameter = experiment.axes.cmdline[p];
        const std::string& value = parameter.values[index[1 + builtin_axis_table().size() + p]];
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

// The cell's key and its kernel's id.
Cell finished_cell(const Experiment& experiment, CellDraft draft) {
    // Built-in axes keep their canonical order; parameters are sorted so that reordering them
    // in the file does not change any key.
    const size_t builtin_count = draft.assigned.size() - experiment.axes.cmdline.size();
    std::sort(draft.assigned.begin() + static_cast<std::ptrdiff_t>(builtin_count),
              draft.assigned.end());
    Cell cell = std::move(draft.cell);
    for (const auto& [axis, text] : draft.assigned) {
        cell.cell_key += (cell.cell_key.empty() ? "" : ";") + axis + "=" + escape_key_value(text);
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
            cells.push_back(finished_cell(experiment, std::move(draft)));
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
            seeded_shuffle(std::span(round), engine);
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
            const std::vector<std::string> axes = declared_axes(experiment);
            throw Error(fmt::format("--only {}: the experiment has no axis '{}'{} (axes: {})", axis,
                                    axis, did_you_mean_note(axis, axes), fmt::join(axes, ", ")));
        }
        for (const auto& value : values) {
            if (std::find(declared.begin(), declared.end(), value) == declared.end()) {
                throw Error(fmt::format(
                    "--only {}={}: '{}' is not a value of {}{} (values: {})", axis, value, value,
                    axis, did_you_mean_note(value, declared), fmt::join(declared, ", ")));
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
