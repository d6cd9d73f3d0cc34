// `report --view phases --format html` (phase_view.h): one self-contained page (html_page) with a
// stacked bar per group, then the table and notes the text prints. Every value goes through
// html_escape.
#include "report/html_report.h"
#include "report/phase_view.h"
#include "report/render_support.h"
#include "report/svg_chart.h"
#include "stats/sorted.h"
#include "util/markup_escape.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

std::string phase_page_note(const std::string& text) {
    return fmt::format("<p class=\"bb-note\">{}</p>\n", html_escape(text));
}

} // namespace

StackedBarChart phase_chart(const PhaseSet& set) {
    StackedBarChart chart;
    chart.title = "where boot time goes: phase medians per group";
    chart.x_title = "seconds from qemu's start";
    for (const auto& info : k_boot_phases) {
        chart.segment_names.emplace_back(info.name);
    }
    chart.total_name = "endpoint (median)";
    for (const auto& group : set.groups) {
        StackedBar bar;
        bar.label = fmt::format("{} ({} boot{})", group_label(set.axes, group.key), group.entered,
                                group.entered == 1 ? "" : "s");
        for (const auto& values : group.phases) {
            bar.segments.push_back(stats::sorted_median_of(values));
        }
        bar.total = stats::sorted_median_of(group.endpoint);
        chart.bars.push_back(std::move(bar));
    }
    return chart;
}

std::string render_phase_html(const PhaseSet& set, const HtmlContext& context) {
    std::string body = fmt::format("<h2>{}</h2>\n", html_escape(phase_heading(set))) +
                       svg_stacked_bar_chart(phase_chart(set)) + html_table(phase_table(set));
    for (const auto& line : phase_notes(set)) {
        body += phase_page_note(line);
    }
    return html_page(context, body);
}

} // namespace bb
