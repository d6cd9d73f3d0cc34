#pragma once
// Prints `report --view initcalls` (report/initcall_view.h): per group, the kernel's time to
// /init, the initcalls' sum and the rest, then the longest initcalls, as aligned text,
// Markdown, CSV (one numeric row per figure), JSON and an HTML table. Times in ms with three
// decimals: the kernel measures initcalls in µs.
#include "report/html_report.h"
#include "report/initcall_view.h"
#include "report/render_support.h"
#include "report/report_format.h"
#include "report/text_table.h"

#include <string>

namespace bb {

// Initcall times print in ms with three decimals: the kernel measures them in µs.
inline const ColumnUnit k_initcall_ms{"ms", 1e3, 3};

Table initcall_table(const InitcallGroup& group);
std::string initcall_heading(const InitcallView& view, const InitcallGroup& group);
std::string render_initcall_view(const InitcallView& view, ReportFormat format);
std::string render_initcall_html(const InitcallView& view, const HtmlContext& context);

} // namespace bb
