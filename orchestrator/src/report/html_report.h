#pragma once
// The HTML report: one self-contained page (inline CSS, inline SVG charts from svg_chart.h, no
// script, nothing fetched from the network) holding a chart and the same table the text
// renderers print. Every name and value is escaped with html_escape.
#include "report/histogram_view.h"
#include "report/param_table.h"
#include "report/per_item_view.h"
#include "report/sample_query.h"
#include "report/text_table.h"

#include <string>

namespace bb {

// `subtitle` says where the data came from (database, filters); escaped like everything else.
struct HtmlContext {
    std::string title = "bootbench report";
    std::string subtitle;
    // Above the body, as text and Markdown print it first: "exploratory: run 3 declared an
    // analysis; its verdict is …" (empty: none).
    std::string banner;
    std::string appendix; // HTML after the view's body (the declared analysis's verdict)
};

// <table class="bb-table"> with numeric columns right-aligned.
std::string html_table(const Table& table);
// The page around `body` (already HTML): head with the inline style sheet, heading, subtitle.
std::string html_page(const HtmlContext& context, const std::string& body);

// The grouped report: medians with CI bars per group, then the report table.
std::string render_report_html(const SampleSet& set, const std::vector<GroupStatistics>& statistics,
                               const HtmlContext& context);
// Metric vs parameter with CI bars, one series per column (variant).
std::string render_param_table_html(const ParamTable& table, const HtmlContext& context);
// Histograms side by side with p50/p90/p99 markers, the bucket table and the median shifts.
std::string render_histogram_html(const HistogramView& view, const HtmlContext& context);
// Per comparison: diff % bars with CIs (geometric mean first), then the per-item table.
std::string render_per_item_html(const PerItemView& view, const HtmlContext& context);

} // namespace bb
