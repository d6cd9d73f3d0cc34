#include "report/comparison_table.h"

#include "report/markdown_table.h"
#include "report/render_support.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <utility>

namespace bb {

namespace {

std::string p_text(const Comparison& c) {
    if (!std::isfinite(c.p_value) || c.p_adjusted == c.p_value) {
        return p_value_text(c.p_value);
    }
    return fmt::format("{} ({})", p_value_text(c.p_value), p_value_text(c.p_adjusted));
}

std::string ratio_text(const Comparison& c) {
    if (!std::isfinite(c.ratio)) {
        return "-";
    }
    if (!std::isfinite(c.ratio_ci.low)) {
        return fmt::format("{:.3f} ({:+.1f}%)", c.ratio, c.relative_change * 100);
    }
    return fmt::format("{:.3f} [{:.3f}, {:.3f}]", c.ratio, c.ratio_ci.low, c.ratio_ci.high);
}

} // namespace

double difference_scale(const Comparison& c) {
    double scale = 0;
    for (double value : {c.difference, c.difference_ci.low, c.difference_ci.high}) {
        if (std::isfinite(value)) {
            scale = std::max(scale, std::fabs(value));
        }
    }
    return scale;
}

std::string missing_side_text(const GroupComparison& group) {
    if (!group.a) {
        return "only in B";
    }
    if (!group.b) {
        return "only in A";
    }
    return {};
}

std::string verdict_word(Comparison::Verdict verdict, bool seconds) {
    if (!seconds && verdict == Comparison::Verdict::Slower) {
        return "higher";
    }
    if (!seconds && verdict == Comparison::Verdict::Faster) {
        return "lower";
    }
    return std::string(to_string(verdict));
}

Table comparison_table(const ComparisonSet& set) {
    Table table;
    table.headers = set.axes;
    table.right_aligned.assign(set.axes.size(), false);
    for (const char* header : {"n A", "n B", "failed/loaded used A, B", "median A", "median B",
                               "B − A (HL) [CI]", "B / A [CI]", "CI covers", "p (Holm)"}) {
        table.headers.emplace_back(header);
        table.right_aligned.push_back(true);
    }
    table.headers.emplace_back("verdict");
    table.right_aligned.push_back(false);
    // Fitting a narrow screen: the cell keys' shared parts and uniform bookkeeping columns are
    // said once above the table; the shift goes first (the ratio says the same in relative terms).
    table.label_columns = set.axes.size();
    for (const auto& header : table.headers) {
        table.said_once_if_uniform.push_back(header == "failed/loaded used A, B" ||
                                             header == "CI covers");
        table.leave_out_order.push_back(header == "B − A (HL) [CI]" ? 1
                                        : header == "CI covers"     ? 2
                                                                    : 0);
    }
    for (const auto& group : set.groups) {
        const Comparison& c = group.comparison;
        std::vector<std::string> row;
        for (const auto& value : group.key) {
            row.push_back(value.label());
        }
        row.push_back(group.a ? std::to_string(c.n_a) : "-");
        row.push_back(group.b ? std::to_string(c.n_b) : "-");
        row.push_back(fmt::format("{}, {}", group.a ? used_contaminated_text(*group.a) : "-",
                                  group.b ? used_contaminated_text(*group.b) : "-"));
        const ValueFormat medians(set.seconds, set.unit,
                                  std::isfinite(c.median_a) ? c.median_a : c.median_b);
        row.push_back(medians(c.median_a));
        row.push_back(medians(c.median_b));
        const ValueFormat difference(set.seconds, set.unit, difference_scale(c));
        row.push_back(std::isfinite(c.difference)
                          ? with_interval(difference.signed_value(c.difference),
                                          interval_text(c.difference_ci, difference, true))
                          : "-");
        row.push_back(ratio_text(c));
        row.push_back(coverage_text(c.coverage));
        row.push_back(p_text(c));
        const std::string sides = missing_side_text(group);
        row.push_back(sides.empty() ? verdict_word(c.verdict, set.seconds) : sides);
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string comparison_summary_line(const ComparisonSet& set) {
    const bool seconds = set.seconds;
    std::string line = fmt::format("{} group{}: {} {}, {} {}, {} no difference shown, {} "
                                   "insufficient data",
                                   set.groups.size(), set.groups.size() == 1 ? "" : "s", set.slower,
                                   verdict_word(Comparison::Verdict::Slower, seconds), set.faster,
                                   verdict_word(Comparison::Verdict::Faster, seconds),
                                   set.no_change, set.insufficient);
    if (set.only_a > 0 || set.only_b > 0) {
        line += fmt::format(" ({} only in A, {} only in B)", set.only_a, set.only_b);
    }
    if (set.failing > 0) {
        line += fmt::format("; {} group{} where B's boots fail more (a failure)", set.failing,
                            set.failing == 1 ? "" : "s");
    }
    line += fmt::format("; verdicts at α {:g} from Holm-adjusted Mann-Whitney p-values", set.alpha);
    if (set.geomean_groups > 0) {
        line +=
            fmt::format("; geometric mean of B/A {:.4f} over {} group{} (descriptive)",
                        set.geomean_ratio, set.geomean_groups, set.geomean_groups == 1 ? "" : "s");
    }
    if (set.threshold > 0) {
        line += fmt::format("; changes within {:g}% not counted", set.threshold * 100);
    }
    return line;
}

std::string failing_groups_text(const ComparisonSet& set) {
    std::string text;
    for (const auto& group : set.groups) {
        if (group.fails_more) {
            text += fmt::format("B's boots failed: {}: {} of {} in B, {} of {} in A (Fisher exact, "
                                "one-sided p {:.2g})\n",
                                group_label(set.axes, group.key), group.failed_b, group.boots_b,
                                group.failed_a, group.boots_a, group.failure_p);
        }
    }
    return text;
}

std::string render_comparison_text(const ComparisonSet& set, const std::string& label_a,
                                   const std::string& label_b) {
    return fmt::format("{}: A = {}, B = {}\n", set.metric, label_a, label_b) +
           render_aligned(comparison_table(set)) + comparison_summary_line(set) + "\n" +
           failing_groups_text(set);
}

std::string render_comparison_markdown(const ComparisonSet& set, const std::string& label_a,
                                       const std::string& label_b) {
    return fmt::format("{}: A = {}, B = {}\n\n", set.metric, label_a, label_b) +
           render_markdown(comparison_table(set)) + "\n" + comparison_summary_line(set) + "\n" +
           failing_groups_text(set);
}

} // namespace bb
