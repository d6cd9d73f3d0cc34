#include "report/initcall_comparison_renderer.h"

#include "report/initcall_renderer.h"
#include "report/render_support.h"
#include "report/svg_chart.h"
#include "util/markup_escape.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {
std::string shift_cell(const Comparison& c) {
    if (!c.insufficient.empty() || !std::isfinite(c.difference)) {
        return "-";
    }
    return fmt::format("{} [{}, {}]", k_initcall_ms.signed_number(c.difference),
                       k_initcall_ms.signed_number(c.difference_ci.low),
                       k_initcall_ms.signed_number(c.difference_ci.high));
}

std::string initcall_label(const InitcallShift& shift) {
    std::string label = shift.module.empty() ? shift.name : shift.name + " [" + shift.module + "]";
    if (shift.only_in != 0) {
        label += fmt::format(" (only in {})", shift.only_in);
    }
    return label;
}

void add_row(Table& table, const std::string& what, const Comparison& c, double q, double holm,
             const std::string& moved) {
    table.rows.push_back({what, k_initcall_ms.number(c.median_a), k_initcall_ms.number(c.median_b),
                          shift_cell(c), p_value_text(c.p_value), p_value_text(q),
                          p_value_text(holm), moved});
}

std::string alpha_percent(double alpha) {
    return ValueFormat::plain(alpha * 100) + " %";
}
} // namespace

Table initcall_shift_table(const InitcallGroupShift& group, int top) {
    Table table;
    table.headers = {"initcall", "A median (ms)", "B median (ms)", "B − A (ms) [95 % interval]",
                     "p",        "q (BH)",        "Holm p",        "moved"};
    table.right_aligned = {false, true, true, true, true, true, true, false};
    table.said_once_if_uniform = std::vector<bool>(8, false);
    table.leave_out_order = {0, 3, 2, 0, 4, 0, 1, 0};
    table.emphasized_rows = 2;
    add_row(table, "(kernel to /init)", group.kernel_init, NAN, NAN, "");
    add_row(table, "(all initcalls)", group.total, NAN, NAN, "");
    int shown = 0;
    for (const auto& shift : group.shifts) {
        if (shown >= top && !shift.moved) {
            continue; // every moved initcall is shown, and the largest others up to --top
        }
        add_row(table, initcall_label(shift), shift.comparison, shift.q, shift.holm,
                shift.moved ? (shift.holm <= 0.05 ? "yes (Holm too)" : "yes") : "");
        ++shown;
    }
    return table;
}

std::string initcall_shift_heading(const InitcallComparison& comparison,
                                   const InitcallGroupShift& group) {
    const std::string label = group_label(comparison.axes, group.key);
    return fmt::format("{}: {} vs {} {}, {} initcalls, moved = Benjamini–Hochberg q ≤ {} "
                       "(false discovery rate), Holm p beside it",
                       label.empty() ? "all boots" : label, group.traced_a, group.traced_b,
                       comparison.unit, group.tested, ValueFormat::plain(comparison.alpha));
}

std::string initcall_shift_summary(const InitcallComparison& comparison,
                                   const InitcallGroupShift& group) {
    const Comparison& kernel = group.kernel_init;
    std::string out = fmt::format(
        "moved at FDR {}: {} initcall{}, {} ms in sum", alpha_percent(comparison.alpha),
        group.moved, group.moved == 1 ? "" : "s", k_initcall_ms.signed_number(group.moved_sum));
    if (kernel.insufficient.empty() && std::isfinite(kernel.difference)) {
        out += fmt::format("; kernel to /init {} ms; not explained by a moved initcall: {} ms",
                           shift_cell(kernel),
                           k_initcall_ms.signed_number(kernel.difference - group.moved_sum));
    } else {
        out +=
            fmt::format("; kernel to /init: {}",
                        kernel.insufficient.empty() ? "no shift estimated" : kernel.insufficient);
    }
    return out;
}

std::string render_initcall_comparison(const InitcallComparison& comparison, ReportFormat format,
                                       int top) {
    const bool markdown = format == ReportFormat::Markdown;
    std::string out;
    for (const auto& group : comparison.groups) {
        out += (out.empty() ? "" : "\n") +
               render_text_or_markdown(initcall_shift_heading(comparison, group),
                                       initcall_shift_table(group, top),
                                       {initcall_shift_summary(comparison, group)}, format);
    }
    if (comparison.only_one_run > 0) {
        out += fmt::format("{}{} group{} with traced boots in one run only, not compared\n",
                           markdown ? "\n" : "", comparison.only_one_run,
                           comparison.only_one_run == 1 ? "" : "s");
    }
    out += fmt::format(
        "{}Per initcall: Hodges–Lehmann B − A over the {} (one value each, 0 where it did not "
        "run), exact Mann–Whitney interval and p. Traced boots log every initcall: "
        "their times are not an untraced boot's.\n",
        markdown ? "\n" : "", comparison.unit);
    return out;
}

// The largest shifts as dots (bars) with their intervals, the moved ones emphasized.
std::string shift_chart(const InitcallGroupShift& group, int top) {
    BarChart chart{.title = "initcalls with the largest shifts, B − A with 95 % intervals (bold: "
                            "moved)",
                   .x_title = "B − A (ms)"};
    for (const auto& shift : group.shifts) {
        if (static_cast<int>(chart.rows.size()) >= std::max(top, group.moved)) {
            break;
        }
        const Comparison& c = shift.comparison;
        chart.rows.push_back({initcall_label(shift), c.difference * 1e3,
                              Interval{c.difference_ci.low * 1e3, c.difference_ci.high * 1e3},
                              shift.moved});
    }
    return svg_bar_chart(chart);
}

std::string initcall_comparison_html(const InitcallComparison& comparison, int top) {
    std::string body;
    for (const auto& group : comparison.groups) {
        body += "<h2>" + html_escape(initcall_shift_heading(comparison, group)) + "</h2>\n" +
                shift_chart(group, top) + html_table(initcall_shift_table(group, top)) +
                fmt::format("<p class=\"bb-note\">{}</p>\n",
                            html_escape(initcall_shift_summary(comparison, group)));
    }
    return body;
}

nlohmann::json initcall_comparison_json(const InitcallComparison& comparison) {
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& group : comparison.groups) {
        nlohmann::json shifts = nlohmann::json::array();
        for (const auto& shift : group.shifts) {
            shifts.push_back(
                {{"name", shift.name},
                 {"module", shift.module},
                 {"only_in", shift.only_in == 0 ? nlohmann::json()
                                                : nlohmann::json(std::string(1, shift.only_in))},
                 {"comparison", comparison_result_json(shift.comparison)},
                 {"q_bh", number_or_null(shift.q)},
                 {"p_holm", number_or_null(shift.holm)},
                 {"moved", shift.moved}});
        }
        groups.push_back({{"key", key_json(comparison.axes, group.key)},
                          {"traced_a", group.traced_a},
                          {"traced_b", group.traced_b},
                          {"kernel_to_init", comparison_result_json(group.kernel_init)},
                          {"initcalls_total", comparison_result_json(group.total)},
                          {"tested", group.tested},
                          {"moved", group.moved},
                          {"moved_sum_s", group.moved_sum},
                          {"initcalls", std::move(shifts)}});
    }
    return {{"alpha", comparison.alpha},
            {"axes", comparison.axes},
            {"groups", std::move(groups)},
            {"groups_in_one_run_only", comparison.only_one_run}};
}

} // namespace bb
