#include "report/comparison_csv.h"

#include "report/comparison_table.h"
#include "report/csv_format.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

// Shortest text that reads back as the same double; empty when there is no value.
std::string number_field(double value) {
    return std::isfinite(value) ? fmt::format("{}", value) : "";
}

std::string verdict_field(const ComparisonSet& set, const GroupComparison& group) {
    const std::string sides = missing_side_text(group);
    return sides.empty() ? verdict_word(group.comparison.verdict, set.seconds) : sides;
}

} // namespace

std::string render_comparison_csv(const ComparisonSet& set) {
    std::string out;
    for (const auto& axis : set.axes) {
        out += csv_field(axis) + ",";
    }
    out += "metric,unit,n_a,n_b,failed_a,failed_b,median_a,median_b,shift,shift_low,shift_high,"
           "ratio,ratio_low,ratio_high,coverage,p,p_holm,verdict,b_fails_more\n";
    const std::string unit = set.seconds ? "s" : set.unit;
    for (const auto& group : set.groups) {
        const Comparison& c = group.comparison;
        for (const auto& value : group.key) {
            out += csv_field(value.label()) + ",";
        }
        out += fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(set.metric),
            csv_field(unit), group.a ? c.n_a : 0, group.b ? c.n_b : 0, group.failed_a,
            group.failed_b, number_field(c.median_a), number_field(c.median_b),
            number_field(c.difference), number_field(c.difference_ci.low),
            number_field(c.difference_ci.high), number_field(c.ratio), number_field(c.ratio_ci.low),
            number_field(c.ratio_ci.high), number_field(c.coverage), number_field(c.p_value),
            number_field(c.p_adjusted), verdict_field(set, group), group.fails_more ? 1 : 0);
    }
    return out;
}

} // namespace bb
