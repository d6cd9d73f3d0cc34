#pragma once
// The formats `bootbench report` and `compare` write (--format), each rendered by its own file.
#include <optional>
#include <string_view>

namespace bb {

enum class ReportFormat { Text, Markdown, Csv, Json, Html };

std::optional<ReportFormat> parse_report_format(std::string_view name);

} // namespace bb
