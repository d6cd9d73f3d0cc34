// The histogram view (view_renderer.h) in text, Markdown, CSV and JSON.
#include "report/comparison_table.h"
#include "report/csv_format.h"
#include "report/render_support.h"
#include "report/view_renderer.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

std::string count_text(double count) {
    // Counts are whole unless a stored bucket was split across a boundary.
    return count == std::round(count) ? fmt::format("{:.0f}", count) : fmt::format("{:.1f}", count);
}

std::string percentile_text(double value) {
    return std::isfinite(value) ? ValueFormat::plain(value) : "-";
}

} // namespace

Table histogram_table(const HistogramView& view) {
    Table table;
    table.headers.emplace_back("bucket");
    table.right_aligned.push_back(false);
    for (const auto& group : view.groups) {
        table.headers.push_back(group_label(view.axes, group.key));
        table.right_aligned.push_back(true);
    }
    for (long long index : shown_buckets(view)) {
        std::vector<std::string> row{bucket_label(view, index)};
        for (const auto& group : view.groups) {
            const auto found = group.merged.counts.find(index);
            row.push_back(count_text(found == group.merged.counts.end() ? 0 : found->second));
        }
        table.rows.push_back(std::move(row));
    }
    const auto add_row = [&](const std::string& label, auto value) {
        std::vector<std::string> row{label};
        for (const auto& group : view.groups) {
            row.push_back(value(group));
        }
        table.rows.push_back(std::move(row));
    };
    add_row("p50", [](const HistogramGroup& g) { return percentile_text(g.p50); });
    add_row("p90", [](const HistogramGroup& g) { return percentile_text(g.p90); });
    add_row("p99", [](const HistogramGroup& g) { return percentile_text(g.p99); });
    add_row("samples", [](const HistogramGroup& g) { return count_text(g.merged.total()); });
    add_row("boots", [](const HistogramGroup& g) { return std::to_string(g.used); });
    add_row("failed/loaded used", [](const HistogramGroup& g) {
        return fmt::format("{}/{}", g.used_failed, g.used_loaded);
    });
    return table;
}

std::string histogram_heading(const HistogramView& view) {
    return fmt::format("histogram {}: buckets of {:g} µs summed over the used boots of each group "
                       "(by {}); p50/p90/p99 interpolated in the bucket",
                       view.name, view.width, fmt::join(view.axes, ", "));
}

namespace {

// "p50 shift, variant=patch − variant=stock: -3 µs [-5, -1] (…)": per-boot percentiles.
std::string shift_line(const char* percentile, const Comparison& c, const std::string& first,
                       const std::string& other) {
    if (c.n_a == 0 || c.n_b == 0) {
        return fmt::format("{} shift, {} − {}: no per-boot {} on one side", percentile, other,
                           first, percentile);
    }
    const std::string interval =
        std::isfinite(c.difference_ci.low)
            ? fmt::format(" [{:+g}, {:+g}]", c.difference_ci.low, c.difference_ci.high)
            : "";
    return fmt::format("{} shift, {} − {}: {:+g} µs{} (Hodges-Lehmann shift of per-boot {}s, "
                       "interval covers {}, Mann-Whitney p {:.3g}, Holm p {:.3g}, n {} → {}; {})",
                       percentile, other, first, c.difference, interval, percentile,
                       coverage_text(c.coverage), c.p_value, c.p_adjusted, c.n_a, c.n_b,
                       c.insufficient.empty() ? verdict_word(c.verdict, false) : c.insufficient);
}

} // namespace

std::vector<std::string> median_shift_lines(const HistogramView& view) {
    std::vector<std::string> lines;
    if (view.groups.empty()) {
        return lines;
    }
    for (const auto& shift : view.shifts) {
        const std::string first = group_label(view.axes, view.groups[shift.base].key);
        const std::string other = group_label(view.axes, view.groups[shift.group].key);
        lines.push_back(shift_line("p50", shift.comparison, first, other));
        lines.push_back(shift_line("p99", shift.p99, first, other));
    }
    if (!view.shifts.empty()) {
        lines.push_back(fmt::format(
            "shifts tested: exact Mann-Whitney on per-boot percentiles, Holm over the {} shifts "
            "of each percentile, decided at α {} (a run's declared α when it declared one)",
            view.shifts.size(), ValueFormat::plain(view.alpha)));
    }
    return lines;
}

nlohmann::json histogram_view_json(const HistogramView& view) {
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& group : view.groups) {
        nlohmann::json buckets = nlohmann::json::array();
        for (const auto& [index, count] : group.merged.counts) {
            buckets.push_back({group.merged.lower_edge(index), count});
        }
        groups.push_back({{"key", key_json(view.axes, group.key)},
                          {"label", group_label(view.axes, group.key)},
                          {"boots_used", group.used},
                          {"boots_used_failed", group.used_failed},
                          {"boots_used_loaded", group.used_loaded},
                          {"boots_without_histogram", group.without},
                          {"boots_excluded", group.excluded},
                          {"samples", group.merged.total()},
                          {"p50", number_or_null(group.p50)},
                          {"p90", number_or_null(group.p90)},
                          {"p99", number_or_null(group.p99)},
                          {"boot_p50s", group.boot_p50s},
                          {"boot_p99s", group.boot_p99s},
                          {"boots_with_guest_percentiles", group.exact_percentiles},
                          {"buckets", std::move(buckets)}});
    }
    nlohmann::json shifts = nlohmann::json::array();
    for (const auto& shift : view.shifts) {
        shifts.push_back({{"a", group_label(view.axes, view.groups[shift.base].key)},
                          {"b", group_label(view.axes, view.groups[shift.group].key)},
                          {"p50", comparison_result_json(shift.comparison)},
                          {"p99", comparison_result_json(shift.p99)}});
    }
    return {{"view", "histogram"},
            {"name", view.name},
            {"by", view.axes},
            {"bucket_width", view.width},
            {"buckets_are", "[lower_edge, lower_edge + bucket_width), [lower_edge, count] pairs"},
            {"split_buckets", view.split_buckets},
            {"groups", std::move(groups)},
            {"median_shifts", std::move(shifts)}};
}

std::string render_histogram_view(const HistogramView& view, ReportFormat format) {
    switch (format) {
    case ReportFormat::Csv: {
        std::string out;
        for (const auto& axis : view.axes) {
            out += csv_field(axis) + ",";
        }
        out += "lo,hi,count\n";
        const auto indices = shown_buckets(view);
        for (const auto& group : view.groups) {
            std::string prefix;
            for (const auto& value : group.key) {
                prefix += csv_field(value.kind == AxisValue::Kind::Null ? "" : value.label()) + ",";
            }
            for (long long index : indices) {
                const auto found = group.merged.counts.find(index);
                out += fmt::format("{}{},{},{}\n", prefix, group.merged.lower_edge(index),
                                   group.merged.lower_edge(index + 1),
                                   found == group.merged.counts.end() ? 0.0 : found->second);
            }
        }
        return out;
    }
    case ReportFormat::Json:
        return json_document(histogram_view_json(view));
    case ReportFormat::Text:
    case ReportFormat::Markdown:
    case ReportFormat::Html:
        break;
    }
    std::vector<std::string> notes = median_shift_lines(view);
    if (view.split_buckets > 0) {
        notes.push_back(fmt::format("{} stored bucket{} straddled a {:g} boundary and {} split "
                                    "in proportion to the overlap",
                                    view.split_buckets, view.split_buckets == 1 ? "" : "s",
                                    view.width, view.split_buckets == 1 ? "was" : "were"));
    }
    return render_text_or_markdown(histogram_heading(view), histogram_table(view), notes, format);
}

} // namespace bb
