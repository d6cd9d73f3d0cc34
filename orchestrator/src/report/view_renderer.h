#pragma once
// Renders the seed-shaped views (parameter table, histograms, per-item table) as aligned text,
// Markdown, CSV and JSON; one implementation file per view (param_table_renderer.cpp,
// histogram_renderer.cpp, per_item_renderer.cpp). The tables built here are shared with
// html_report.
#include "report/histogram_view.h"
#include "report/param_table.h"
#include "report/per_item_view.h"
#include "report/report_format.h"
#include "report/text_table.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bb {

// Parameter table: the parameter (right-aligned, numeric order), then one column per group of
// the column axis: "median [95 % interval] coverage (n=…)" in one unit for the whole table.
Table param_table_table(const ParamTable& table);
std::string param_table_heading(const ParamTable& table);
// The trend down each column (Jonckheere–Terpstra), one line per column.
std::vector<std::string> param_table_notes(const ParamTable& table);
std::string render_param_table(const ParamTable& table, ReportFormat format);
nlohmann::json param_table_json(const ParamTable& table);

// Histograms side by side: bucket | count per group, then p50, p90, p99 and boots rows.
Table histogram_table(const HistogramView& view);
std::string histogram_heading(const HistogramView& view);
// "p50 shift, variant=wake − variant=stock: -20000 [-21000, -19000] (…)", one line per shift.
std::vector<std::string> median_shift_lines(const HistogramView& view);
std::string render_histogram_view(const HistogramView& view, ReportFormat format);
nlohmann::json histogram_view_json(const HistogramView& view);

// Per-item table: geometric-mean row first, then one row per item.
Table per_item_table(const PerItemView& view, const PerItemComparison& comparison);
std::string per_item_heading(const PerItemView& view, const PerItemComparison& comparison);
std::string render_per_item_view(const PerItemView& view, ReportFormat format);
nlohmann::json per_item_view_json(const PerItemView& view);

// "+3.8%" / "-13.0%", "-" when not finite (ratio 1.038 → "+3.8%").
std::string percent_change_text(double ratio);

} // namespace bb
