#pragma once
// Prints `compare A B --initcalls` (report/initcall_comparison.h): per group, the time to /init
// and the initcalls' sum, then the initcalls with the largest shifts (every moved one, at least
// `top` rows), a line summing the moved ones against the time to /init, as text, Markdown, an
// HTML fragment (tables) and JSON. Times in ms with three decimals, as the kernel's µs.
#include "report/initcall_comparison.h"
#include "report/report_format.h"
#include "report/text_table.h"

#include <nlohmann/json.hpp>
#include <string>

namespace bb {

Table initcall_shift_table(const InitcallGroupShift& group, int top);
std::string initcall_shift_heading(const InitcallComparison& comparison,
                                   const InitcallGroupShift& group);
// "moved at FDR 5 %: 1 initcall, +1000.123 ms in sum; kernel to /init +1010.000 ms [...]; not
// explained by a moved initcall: +9.877 ms"
std::string initcall_shift_summary(const InitcallComparison& comparison,
                                   const InitcallGroupShift& group);
std::string render_initcall_comparison(const InitcallComparison& comparison, ReportFormat format,
                                       int top);
std::string initcall_comparison_html(const InitcallComparison& comparison, int top);
nlohmann::json initcall_comparison_json(const InitcallComparison& comparison);

} // namespace bb
