// The per-item view (view_renderer.h) in text, Markdown, CSV and JSON.
#include "report/csv_format.h"
#include "report/render_support.h"
#include "report/view_renderer.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

std::string percent_interval_text(const Interval& ratio) {
    if (!std::isfinite(ratio.low) || !std::isfinite(ratio.high)) {
        return "";
    }
    return fmt::format("[{}, {}]", percent_change_text(ratio.low), percent_change_text(ratio.high));
}

double largest_item_median(const PerItemView& view) {
    double largest = 0;
    for (const auto& comparison : view.comparisons) {
        for (const auto& item : comparison.items) {
            for (double value : {item.comparison.median_a, item.comparison.median_b}) {
                if (std::isfinite(value)) {
                    largest = std::max(largest, std::fabs(value));
                }
            }
        }
    }
    return largest;
}

} // namespace

std::string percent_change_text(double ratio) {
    return std::isfinite(ratio) ? fmt::format("{:+.1f}%", (ratio - 1) * 100) : "-";
}

Table per_item_table(const PerItemView& view, const PerItemComparison& comparison) {
    const ColumnUnit unit = column_unit(view.seconds, view.unit, largest_item_median(view));
    Table table;
    table.headers = {"item",
                     unit.header(view.base.label()),
                     unit.header(comparison.other.label()),
                     "diff",
                     "diff % [CI]",
                     "n"};
    table.right_aligned = {false, true, true, true, true, true};
    table.emphasized_rows = 1;
    const GeometricMean& g = comparison.geomean;
    table.rows.push_back({"* geomean", unit.number(comparison.base_geomean),
                          unit.number(comparison.other_geomean),
                          unit.signed_number(comparison.other_geomean - comparison.base_geomean),
                          with_interval(percent_change_text(g.value), percent_interval_text(g.ci)),
                          fmt::format("{}/{} boots × {} item{}", g.n_base, g.n_other, g.items,
                                      g.items == 1 ? "" : "s")});
    for (const auto& item : comparison.items) {
        const Comparison& c = item.comparison;
        table.rows.push_back(
            {item.item, unit.number(c.median_a), unit.number(c.median_b),
             unit.signed_number(c.difference),
             with_interval(percent_change_text(c.ratio), percent_interval_text(c.ratio_ci)),
             fmt::format("{}/{}{}", c.n_a, c.n_b,
                         contaminated_text(item.used_failed, item.used_loaded))});
    }
    return table;
}

std::string per_item_heading(const PerItemView& view, const PerItemComparison& comparison) {
    return fmt::format("{}.* by {}: {} (base) vs {}; medians, diff = Hodges-Lehmann shift {} − {}, "
                       "diff % = {} / {} − 1 on the log scale with its exact Mann-Whitney interval "
                       "(negative: lower); * geomean = each boot's geomean over the items, "
                       "compared across boots",
                       view.prefix, view.axis, view.base.label(), comparison.other.label(),
                       comparison.other.label(), view.base.label(), comparison.other.label(),
                       view.base.label());
}

nlohmann::json per_item_view_json(const PerItemView& view) {
    nlohmann::json comparisons = nlohmann::json::array();
    for (const auto& comparison : view.comparisons) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto& item : comparison.items) {
            const Comparison& c = item.comparison;
            items.push_back({{"item", item.item},
                             {"n_base", c.n_a},
                             {"n_other", c.n_b},
                             {"median_base", number_or_null(c.median_a)},
                             {"median_other", number_or_null(c.median_b)},
                             {"diff", number_or_null(c.difference)},
                             {"diff_ci", interval_json(c.difference_ci)},
                             {"ratio", number_or_null(c.ratio)},
                             {"ratio_ci", interval_json(c.ratio_ci)},
                             {"p", number_or_null(c.p_value)}});
        }
        const GeometricMean& g = comparison.geomean;
        comparisons.push_back({{"other", axis_json(comparison.other)},
                               {"geomean",
                                {{"endpoint", "per-boot geomean over the items"},
                                 {"items", g.items},
                                 {"boots_base", g.n_base},
                                 {"boots_other", g.n_other},
                                 {"boots_skipped", g.skipped},
                                 {"base", number_or_null(comparison.base_geomean)},
                                 {"other", number_or_null(comparison.other_geomean)},
                                 {"ratio", number_or_null(g.value)},
                                 {"ratio_ci", interval_json(g.ci)},
                                 {"ci_coverage", number_or_null(g.coverage)},
                                 {"p", number_or_null(g.p_value)},
                                 {"insufficient", g.insufficient}}},
                               {"items", std::move(items)}});
    }
    return {{"view", "per-item"}, {"prefix", view.prefix},
            {"by", view.axis},    {"base", axis_json(view.base)},
            {"unit", view.unit},  {"comparisons", std::move(comparisons)}};
}

std::string render_per_item_view(const PerItemView& view, ReportFormat format) {
    switch (format) {
    case ReportFormat::Csv: {
        std::string out = fmt::format("row,item,axis,base,other,n_base,n_other,median_base,"
                                      "median_other,diff,ratio,ratio_ci_low,ratio_ci_high,"
                                      "unit\n");
        const auto number = [](double value) {
            return std::isfinite(value) ? fmt::format("{}", value) : std::string();
        };
        for (const auto& comparison : view.comparisons) {
            const std::string sides = fmt::format("{},{}", csv_field(view.base.label()),
                                                  csv_field(comparison.other.label()));
            const GeometricMean& g = comparison.geomean;
            out += fmt::format("geomean,,{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(view.axis),
                               sides, g.n_base, g.n_other, number(comparison.base_geomean),
                               number(comparison.other_geomean),
                               number(comparison.other_geomean - comparison.base_geomean),
                               number(g.value), number(g.ci.low), number(g.ci.high),
                               csv_field(view.unit));
            for (const auto& item : comparison.items) {
                const Comparison& c = item.comparison;
                out += fmt::format("item,{},{},{},{},{},{},{},{},{},{},{},{}\n",
                                   csv_field(item.item), csv_field(view.axis), sides, c.n_a, c.n_b,
                                   number(c.median_a), number(c.median_b), number(c.difference),
                                   number(c.ratio), number(c.ratio_ci.low), number(c.ratio_ci.high),
                                   csv_field(view.unit));
            }
        }
        return out;
    }
    case ReportFormat::Json:
        return json_document(per_item_view_json(view));
    case ReportFormat::Text:
    case ReportFormat::Markdown:
    case ReportFormat::Html:
        break;
    }
    std::string out;
    for (const auto& comparison : view.comparisons) {
        out += (out.empty() ? "" : "\n") +
               render_text_or_markdown(per_item_heading(view, comparison),
                                       per_item_table(view, comparison), {}, format);
    }
    return out;
}

} // namespace bb
