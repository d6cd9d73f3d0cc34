#include "pipeline/phase_metrics.h"

#include <algorithm>
#include <string>

namespace bb {

namespace {
constexpr std::string_view k_start_suffix = "-start";
constexpr std::string_view k_end_suffix = "-end";

std::string metric_name(std::string_view phase) {
    std::string name(phase);
    std::replace(name.begin(), name.end(), '-', '_');
    return name + "_seconds";
}
} // namespace

std::optional<double> marker_host_seconds(const BootRecord& record, std::string_view name) {
    for (const auto& event : record.events) {
        if (event.kind == ConsoleEvent::Kind::Marker && event.text == name) {
            return event.host_s;
        }
    }
    return std::nullopt;
}

void add_phase_metrics(BootRecord& record) {
    for (const auto& event : record.events) {
        const std::string_view text = event.text;
        if (event.kind != ConsoleEvent::Kind::Marker || !text.ends_with(k_start_suffix) ||
            text.size() == k_start_suffix.size()) {
            continue;
        }
        const std::string_view phase = text.substr(0, text.size() - k_start_suffix.size());
        const auto end =
            marker_host_seconds(record, std::string(phase) + std::string(k_end_suffix));
        if (end && *end >= event.host_s) {
            record.metrics.push_back({metric_name(phase), *end - event.host_s, "s", *end});
        }
    }
}

} // namespace bb
