#include "report/initcall_renderer.h"

#include "report/csv_format.h"
#include "report/render_support.h"
#include "report/svg_chart.h"
#include "util/markup_escape.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {
std::string share_text(double share) {
    return std::isfinite(share) ? fmt::format("{:.1f} %", share * 100) : "-";
}

std::string interval_cell(const MedianEstimate& estimate) {
    if (!estimate.insufficient.empty() || !std::isfinite(estimate.ci.low)) {
        return "-";
    }
    return fmt::format("[{}, {}] {:.1f} %", k_initcall_ms.number(estimate.ci.low),
                       k_initcall_ms.number(estimate.ci.high), estimate.coverage * 100);
}

void add_row(Table& table, const std::string& what, const std::string& module,
             const MedianEstimate& estimate, double share) {
    table.rows.push_back({what, module, k_initcall_ms.number(estimate.median),
                          interval_cell(estimate), share_text(share), std::to_string(estimate.n)});
}

// The figures a CSV row or a JSON object carries for one estimate.
struct Figure {
    std::string kind; // kernel-to-init, initcalls, outside, initcall
    std::string name;
    std::string module;
    const MedianEstimate* estimate;
    double share;
};

std::vector<Figure> figures(const InitcallGroup& group) {
    const double kernel = group.kernel_init.median;
    std::vector<Figure> all{{"kernel-to-init", "", "", &group.kernel_init, 1.0},
                            {"initcalls", "", "", &group.total, group.total.median / kernel},
                            {"outside", "", "", &group.outside, group.outside.median / kernel}};
    for (const auto& row : group.rows) {
        all.push_back({"initcall", row.name, row.module, &row.duration, row.share});
    }
    return all;
}

std::string excluded_note(const InitcallGroup& group) {
    const int left_out = group.used - group.traced;
    if (left_out == 0) {
        return "";
    }
    return fmt::format("; {} used boots left out: {} not traced, {} with a wrapped ring buffer, "
                       "{} with a cut dump, {} without initcalls",
                       left_out, group.untraced, group.wrapped, group.cut, group.empty);
}

std::string render_csv(const InitcallView& view) {
    std::string out = "group,kind,initcall,module,boots,median_s,ci_low_s,ci_high_s,coverage,"
                      "share_of_kernel\n";
    for (const auto& group : view.groups) {
        const std::string label = csv_field(group_label(view.axes, group.key));
        for (const auto& f : figures(group)) {
            const MedianEstimate& e = *f.estimate;
            const auto number = [](double v) {
                return std::isfinite(v) ? fmt::format("{:.9g}", v) : std::string();
            };
            out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", label, f.kind, csv_field(f.name),
                               csv_field(f.module), e.n, number(e.median), number(e.ci.low),
                               number(e.ci.high), number(e.coverage), number(f.share));
        }
    }
    return out;
}

std::string render_json(const InitcallView& view) {
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& group : view.groups) {
        nlohmann::json rows = nlohmann::json::array();
        nlohmann::json entry{{"key", key_json(view.axes, group.key)},
                             {"used", group.used},
                             {"traced", group.traced},
                             {"not_traced", group.untraced},
                             {"wrapped", group.wrapped},
                             {"cut", group.cut},
                             {"empty", group.empty},
                             {"distinct_initcalls", group.distinct}};
        for (const auto& f : figures(group)) {
            nlohmann::json figure{{"boots", f.estimate->n},
                                  {"median_s", number_or_null(f.estimate->median)},
                                  {"ci_s", interval_json(f.estimate->ci)},
                                  {"coverage", number_or_null(f.estimate->coverage)},
                                  {"share_of_kernel", number_or_null(f.share)}};
            if (f.kind == "initcall") {
                figure["name"] = f.name;
                figure["module"] = f.module;
                rows.push_back(std::move(figure));
            } else {
                entry[f.kind] = std::move(figure);
            }
        }
        entry["initcalls"] = std::move(rows);
        groups.push_back(std::move(entry));
    }
    return json_document({{"view", "initcalls"},
                          {"axes", view.axes},
                          {"top", view.top},
                          {"groups", std::move(groups)}});
}
} // namespace

Table initcall_table(const InitcallGroup& group) {
    Table table;
    table.headers = {"initcall",  "module", "median (ms)", "95 % interval (ms), coverage",
                     "of kernel", "boots"};
    table.right_aligned = {false, false, true, true, true, true};
    table.said_once_if_uniform = {false, true, false, false, false, true};
    table.leave_out_order = {0, 2, 0, 1, 0, 3};
    table.emphasized_rows = 3;
    add_row(table, "(kernel to /init)", "", group.kernel_init, 1.0);
    add_row(table, "(all initcalls)", "", group.total,
            group.total.median / group.kernel_init.median);
    add_row(table, "(outside initcalls)", "", group.outside,
            group.outside.median / group.kernel_init.median);
    bool any_module = false;
    for (const auto& row : group.rows) {
        add_row(table, row.name, row.module, row.duration, row.share);
        any_module = any_module || !row.module.empty();
    }
    if (!any_module) { // every row a built-in: no column of blanks
        drop_column(table, 1);
    }
    return table;
}

std::string initcall_heading(const InitcallView& view, const InitcallGroup& group) {
    const std::string label = group_label(view.axes, group.key);
    return fmt::format("{}: {} traced boots of {} used, the {} longest of {} initcalls by median "
                       "(the kernel's clock){}",
                       label.empty() ? "all boots" : label, group.traced, group.used,
                       group.rows.size(), group.distinct, excluded_note(group));
}

std::string render_initcall_view(const InitcallView& view, ReportFormat format) {
    if (format == ReportFormat::Csv) {
        return render_csv(view);
    }
    if (format == ReportFormat::Json) {
        return render_json(view);
    }
    const std::vector<std::string> notes{
        "Each row is a median over boots (one duration per boot) with its order-statistic "
        "interval; \"of kernel\" is that median over the median time to /init. Traced boots "
        "log every initcall (initcall_debug): their boot time is not an untraced boot's."};
    std::string out;
    for (const auto& group : view.groups) {
        out +=
            (out.empty() ? "" : "\n") + render_text_or_markdown(initcall_heading(view, group),
                                                                initcall_table(group), {}, format);
    }
    out += format == ReportFormat::Markdown ? "\n" : "";
    for (const auto& note : notes) {
        out += note + "\n";
    }
    return out;
}

// A bootgraph of the group's longest initcalls: each at its median start for its median
// duration on the kernel's clock, in the order they start.
std::string initcall_timeline(const InitcallGroup& group) {
    std::vector<const InitcallRow*> rows;
    for (const auto& row : group.rows) {
        rows.push_back(&row);
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto* a, const auto* b) { return a->start < b->start; });
    TimelineChart chart{.title = "the longest initcalls on the kernel's clock (medians over boots)",
                        .x_title = "kernel's clock (ms)"};
    for (const auto* row : rows) {
        chart.rows.push_back(
            {row->module.empty() ? row->name : row->name + " [" + row->module + "]",
             row->start * 1e3, row->duration.median * 1e3,
             fmt::format("{}: starts at {} ms, takes {} ms (n={})", row->name,
                         k_initcall_ms.number(row->start),
                         k_initcall_ms.number(row->duration.median), row->duration.n)});
    }
    return svg_timeline_chart(chart);
}

std::string render_initcall_html(const InitcallView& view, const HtmlContext& context) {
    std::string body;
    for (const auto& group : view.groups) {
        body += "<h2>" + html_escape(initcall_heading(view, group)) + "</h2>\n" +
                initcall_timeline(group) + html_table(initcall_table(group));
    }
    return html_page(context, body);
}

} // namespace bb
