#include "report/report_format.h"

namespace bb {

std::optional<ReportFormat> parse_report_format(std::string_view name) {
    if (name == "text") {
        return ReportFormat::Text;
    }
    if (name == "md" || name == "markdown") {
        return ReportFormat::Markdown;
    }
    if (name == "csv") {
        return ReportFormat::Csv;
    }
    if (name == "json") {
        return ReportFormat::Json;
    }
    if (name == "html") {
        return ReportFormat::Html;
    }
    return std::nullopt;
}

} // namespace bb
