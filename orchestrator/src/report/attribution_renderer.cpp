// `compare --phases` (phase_view.h): which phases carry the endpoint's shift, in text, Markdown
// and JSON.
#include "report/comparison_table.h"
#include "report/markdown_table.h"
#include "report/phase_view.h"
#include "report/render_support.h"
#include "report/sample_query.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

constexpr size_t k_attribution_rows = k_phase_count + 1; // the phases, then the endpoint

const PhaseShift& shift_of(const GroupAttribution& group, size_t row) {
    return row < k_phase_count ? group.phases[row] : group.endpoint;
}

// "yes: B slower", "no", or why there is no interval at the level asked for.
std::string excludes_text(const PhaseShift& shift) {
    const Comparison& c = shift.comparison;
    if (!c.insufficient.empty()) {
        return "no interval: " + c.insufficient;
    }
    if (!shift.carries) {
        return "no";
    }
    return c.difference_ci.low > 0 ? "yes: B slower" : "yes: B faster";
}

std::vector<std::string> attribution_row(const GroupAttribution& group, size_t row) {
    std::vector<std::string> cells;
    for (const auto& value : group.key) {
        cells.push_back(value.label());
    }
    const BootPhaseInfo& info = phase_info(row);
    cells.emplace_back(info.name);
    cells.push_back(fmt::format("{} → {}", moment_label(info.from), moment_label(info.to)));
    const Comparison& c = shift_of(group, row).comparison;
    cells.push_back(fmt::format("{}/{}", c.n_a, c.n_b));
    const ValueFormat medians(true, "s", std::isfinite(c.median_a) ? c.median_a : c.median_b);
    cells.push_back(medians(c.median_a));
    cells.push_back(medians(c.median_b));
    const ValueFormat difference(true, "s", difference_scale(c));
    cells.push_back(std::isfinite(c.difference)
                        ? with_interval(difference.signed_value(c.difference),
                                        interval_text(c.difference_ci, difference, true))
                        : "-");
    cells.push_back(coverage_text(c.coverage));
    cells.push_back(p_value_text(c.p_value));
    cells.push_back(excludes_text(shift_of(group, row)));
    return cells;
}

nlohmann::json shift_json(const PhaseShift& shift) {
    nlohmann::json result = comparison_result_json(shift.comparison);
    result["method"] = shift.comparison.method;
    result["excludes_zero"] = shift.carries;
    return result;
}

// "kernel (B slower), init (B faster)"
std::string carriers_text(const GroupAttribution& group) {
    std::vector<std::string> names;
    for (size_t p = 0; p < k_phase_count; ++p) {
        const PhaseShift& shift = group.phases[p];
        if (shift.carries) {
            names.push_back(
                fmt::format("{} (B {})", k_boot_phases[p].name,
                            shift.comparison.difference_ci.low > 0 ? "slower" : "faster"));
        }
    }
    return fmt::format("{}", fmt::join(names, ", "));
}

// The phases a side has no value of (no banner under `quiet`): the shift they hold is undivided.
std::string uncompared_text(const GroupAttribution& group) {
    std::vector<std::string> names;
    for (size_t p = 0; p < k_phase_count; ++p) {
        const Comparison& c = group.phases[p].comparison;
        if (c.n_a == 0 || c.n_b == 0) {
            names.emplace_back(k_boot_phases[p].name);
        }
    }
    return names.empty() ? ""
                         : fmt::format("; {} not compared (a side's boots lack their moments), so "
                                       "what they hold of the shift is not divided",
                                       fmt::join(names, ", "));
}

std::string group_line(const PhaseAttribution& attribution, const GroupAttribution& group) {
    const std::string label = group_label(attribution.axes, group.key);
    if (!group.a || !group.b) {
        return fmt::format("{}: {}, nothing to attribute", label,
                           group.a ? "only in A" : "only in B");
    }
    const std::string carriers = carriers_text(group);
    const std::string uncompared = uncompared_text(group);
    if (group.endpoint.carries) {
        return (carriers.empty()
                    ? fmt::format("{}: the endpoint moved, but no single phase's interval excludes "
                                  "0 (the shift is spread over phases, or too small in each)",
                                  label)
                    : fmt::format("{}: the endpoint moved; carried by {}", label, carriers)) +
               uncompared;
    }
    return (carriers.empty()
                ? fmt::format("{}: no shift shown, in the endpoint or in any phase", label)
                : fmt::format("{}: the endpoint's interval includes 0, but {} excludes 0", label,
                              carriers)) +
           uncompared;
}

} // namespace

Table attribution_table(const PhaseAttribution& attribution) {
    Table table;
    table.headers = attribution.axes;
    table.right_aligned.assign(attribution.axes.size(), false);
    table.headers.insert(table.headers.end(), {"phase", "span"});
    table.right_aligned.insert(table.right_aligned.end(), {false, false});
    for (const char* header :
         {"n A/B", "median A", "median B", "B − A (HL) [CI]", "CI covers", "p"}) {
        table.headers.emplace_back(header);
        table.right_aligned.push_back(true);
    }
    table.headers.emplace_back(
        fmt::format("{:g} % interval excludes 0", (1 - attribution.alpha) * 100));
    table.right_aligned.push_back(false);
    table.label_columns = attribution.axes.size();
    for (const auto& header : table.headers) {
        // The decision too: "no interval: 3 vs 3: …" in every row is said once.
        table.said_once_if_uniform.push_back(header == "CI covers" ||
                                             &header == &table.headers.back());
        table.leave_out_order.push_back(header == "span" ? 2 : header == "CI covers" ? 1 : 0);
    }
    for (const auto& group : attribution.groups) {
        if (!group.a || !group.b) {
            continue; // said in the lines under the table
        }
        for (size_t row = 0; row < k_attribution_rows; ++row) {
            table.rows.push_back(attribution_row(group, row));
        }
    }
    return table;
}

std::vector<std::string> attribution_lines(const PhaseAttribution& attribution) {
    std::vector<std::string> lines;
    for (const auto& group : attribution.groups) {
        lines.push_back(group_line(attribution, group));
    }
    lines.push_back(fmt::format(
        "phases: {}. A phase carries the shift when its interval (Hodges-Lehmann B − A, exact "
        "Mann-Whitney, each its own {:g} % interval, not adjusted over the phases) excludes 0",
        phase_spans_text(), (1 - attribution.alpha) * 100));
    return lines;
}

std::string render_attribution(const PhaseAttribution& attribution, ReportFormat format) {
    const std::string heading =
        "where the shift goes: per phase, B − A of the boots' phase values (one value per boot)";
    return render_text_or_markdown(heading, attribution_table(attribution),
                                   attribution_lines(attribution), format);
}

nlohmann::json attribution_json(const PhaseAttribution& attribution) {
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& group : attribution.groups) {
        nlohmann::json entry{{"key", key_json(attribution.axes, group.key)},
                             {"label", group_label(attribution.axes, group.key)},
                             {"in_a", group.a != nullptr},
                             {"in_b", group.b != nullptr}};
        if (group.a && group.b) {
            nlohmann::json phases = nlohmann::json::array();
            for (size_t p = 0; p < k_phase_count; ++p) {
                nlohmann::json phase = shift_json(group.phases[p]);
                phase["name"] = k_boot_phases[p].name;
                phases.push_back(std::move(phase));
            }
            entry["phases"] = std::move(phases);
            entry["endpoint"] = shift_json(group.endpoint);
            entry["carried_by"] = carrying_phases(group);
        }
        groups.push_back(std::move(entry));
    }
    return {{"alpha", attribution.alpha},
            {"by", attribution.axes},
            {"method", "Hodges-Lehmann shift B - A with its exact Mann-Whitney interval, per "
                       "phase, one value per boot; not adjusted over the phases"},
            {"groups", std::move(groups)}};
}

} // namespace bb
