#include "report/report_table.h"

#include "report/markdown_table.h"
#include "report/render_support.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <utility>

namespace bb {

namespace {

std::string excluded_text(const SampleGroup& group) {
    std::vector<std::string> parts;
    if (group.failed > 0) {
        parts.push_back(fmt::format("{} failed", group.failed));
    }
    if (group.loaded > 0) {
        parts.push_back(fmt::format("{} loaded", group.loaded));
    }
    if (group.no_value > 0) {
        parts.push_back(fmt::format("{} no value", group.no_value));
    }
    std::string text;
    for (const auto& part : parts) {
        text += (text.empty() ? "" : ", ") + part;
    }
    return text.empty() ? "-" : text;
}

std::string axes_text(const std::vector<std::string>& axes) {
    std::string text;
    for (const auto& axis : axes) {
        text += (text.empty() ? "" : ", ") + axis;
    }
    return text;
}

std::string report_heading(const SampleSet& set) {
    return fmt::format("{}{}: {} boot{}, {} used, {} group{} by {}", set.metric,
                       set.unit.empty() || set.seconds ? "" : " (" + set.unit + ")", set.boots,
                       set.boots == 1 ? "" : "s", set.used, set.groups.size(),
                       set.groups.size() == 1 ? "" : "s", axes_text(set.axes));
}

std::string params_note(const SampleSet& set) {
    std::string note;
    for (const auto& [problem, boots] : set.params_not_applied) {
        note += fmt::format("warning: {} boot{} did not run as configured, {}\n", boots,
                            boots == 1 ? "" : "s", problem);
    }
    return note;
}

std::string inclusion_text(const SampleSet& set) {
    if (set.include_failed && set.include_loaded) {
        return "--include-failed and --include-loaded: failed and loaded samples with a value "
               "are used";
    }
    if (set.include_failed) {
        return "--include-failed: failed samples with a value are used; --include-loaded uses "
               "loaded ones";
    }
    if (set.include_loaded) {
        return "--include-loaded: loaded samples are used; --include-failed uses failed ones "
               "with a value";
    }
    return "--include-failed uses failed samples that have a value, --include-loaded loaded ones";
}

std::string exclusion_note(const SampleSet& set) {
    if (set.used == set.boots && !set.include_failed && !set.include_loaded) {
        return params_note(set);
    }
    return params_note(set) +
           fmt::format(
               "excluded samples are counted, never averaged: failed = outcome other than "
               "ok or a parameter that did not take,\nloaded = the host was not quiet (foreign "
               "load above the quiet limit in force), no value = metric not recorded\n({}; "
               "the column \"failed/loaded used\" counts those that entered a row)\n",
               inclusion_text(set));
}

// "12.0 [10.0, 14.0]" under "median [95 % CI] (ms)", or the median and why there is no interval
// at this n.
std::string median_text(const MedianEstimate& median, const ColumnUnit& unit) {
    if (!median.insufficient.empty()) {
        return unit.number(median.median) + " (n<6: no 95 % interval)";
    }
    if (!std::isfinite(median.ci.low) || !std::isfinite(median.ci.high)) {
        return unit.number(median.median);
    }
    return fmt::format("{} [{}, {}]", unit.number(median.median), unit.number(median.ci.low),
                       unit.number(median.ci.high));
}

// One unit for every number of the table, from the smallest median, so digits line up.
ColumnUnit table_unit(const SampleSet& set, const std::vector<GroupStatistics>& statistics) {
    double smallest = std::numeric_limits<double>::infinity();
    for (const auto& stats : statistics) {
        if (stats.summary.n > 0 && std::isfinite(stats.summary.median)) {
            smallest = std::min(smallest, std::fabs(stats.summary.median));
        }
    }
    return column_unit(set.seconds, set.unit, std::isfinite(smallest) ? smallest : 0);
}

constexpr const char* interval_note =
    "median [95 % CI]: distribution-free order-statistic interval of the median; \"CI covers\" "
    "is the coverage it really has at this n\n";

} // namespace

Table report_table(const SampleSet& set, const std::vector<GroupStatistics>& statistics) {
    const ColumnUnit unit = table_unit(set, statistics);
    Table table;
    table.headers = set.axes;
    table.label_columns = set.axes.size();
    table.right_aligned.assign(set.axes.size(), false);
    table.said_once_if_uniform.assign(set.axes.size(), false);
    table.leave_out_order.assign(set.axes.size(), 0);
    struct Column {
        std::string header;
        bool right;
        bool said_once;
        int leave_out;
    };
    for (const Column& column :
         {Column{"n", true, false, 0}, Column{unit.header("median [95 % CI]"), true, false, 0},
          Column{"CI covers", true, true, 0}, Column{unit.header("mean ± σ"), true, false, 2},
          Column{unit.header("min … max"), true, false, 1},
          Column{"failed/loaded used", true, true, 0}, Column{"excluded", false, true, 0}}) {
        table.headers.push_back(column.header);
        table.right_aligned.push_back(column.right);
        table.said_once_if_uniform.push_back(column.said_once);
        table.leave_out_order.push_back(column.leave_out);
    }
    for (const auto& stats : statistics) {
        std::vector<std::string> row;
        for (const auto& value : stats.group->key) {
            row.push_back(value.label());
        }
        row.push_back(std::to_string(stats.summary.n));
        if (stats.summary.n == 0) {
            row.insert(row.end(), {"-", "-", "-", "-"});
        } else {
            row.push_back(median_text(stats.median, unit));
            row.push_back(coverage_text(stats.median.coverage));
            row.push_back(fmt::format("{} ± {}", unit.number(stats.summary.mean),
                                      unit.number(stats.summary.stddev)));
            row.push_back(fmt::format("{} … {}", unit.number(stats.summary.min),
                                      unit.number(stats.summary.max)));
        }
        row.push_back(used_contaminated_text(*stats.group));
        row.push_back(excluded_text(*stats.group));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string render_report_text(const SampleSet& set,
                               const std::vector<GroupStatistics>& statistics) {
    return report_heading(set) + "\n" + render_aligned(report_table(set, statistics)) +
           interval_note + exclusion_note(set);
}

std::string render_report_markdown(const SampleSet& set,
                                   const std::vector<GroupStatistics>& statistics) {
    const std::string note = exclusion_note(set);
    return report_heading(set) + "\n\n" + render_markdown(report_table(set, statistics)) + "\n" +
           interval_note + note;
}

} // namespace bb
