#include "report/render_support.h"

#include "report/markdown_table.h"

#include <cmath>
#include <fmt/format.h>
#include <utility>

namespace bb {

ValueFormat::ValueFormat(bool seconds, std::string unit, double representative)
    : m_seconds(seconds), m_unit(std::move(unit)),
      m_time_unit(unit_for_seconds(std::isfinite(representative) ? representative : 0)) {}

std::string ValueFormat::operator()(double value) const {
    if (!std::isfinite(value)) {
        return "-";
    }
    if (m_seconds) {
        return format_seconds(value, m_time_unit);
    }
    return m_unit.empty() ? plain(value) : plain(value) + " " + m_unit;
}

std::string ValueFormat::signed_value(double value) const {
    const std::string text = (*this)(value);
    return std::isfinite(value) && value >= 0 ? "+" + text : text;
}

std::string ValueFormat::plain(double value) {
    const double magnitude = std::fabs(value);
    if (value == std::round(value) && magnitude < 1e15) {
        return fmt::format("{:.0f}", value);
    }
    if (magnitude >= 100) {
        return fmt::format("{:.1f}", value);
    }
    if (magnitude >= 1) {
        return fmt::format("{:.3f}", value);
    }
    return fmt::format("{:.4g}", value);
}

std::string ColumnUnit::number(double value) const {
    if (!std::isfinite(value)) {
        return "-";
    }
    return decimals < 0 ? ValueFormat::plain(value * scale)
                        : fmt::format("{:.{}f}", value * scale, decimals);
}

std::string ColumnUnit::signed_number(double value) const {
    const std::string text = number(value);
    return std::isfinite(value) && value >= 0 ? "+" + text : text;
}

std::string ColumnUnit::header(const std::string& name) const {
    return symbol.empty() ? name : fmt::format("{} ({})", name, symbol);
}

ColumnUnit column_unit(bool seconds, const std::string& unit, double representative) {
    if (!seconds) {
        return {unit, 1};
    }
    const double value = std::isfinite(representative) ? std::fabs(representative) : 0;
    ColumnUnit time{"s", 1};
    switch (unit_for_seconds(value)) {
    case TimeUnit::Microseconds:
        time = {"µs", 1e6};
        break;
    case TimeUnit::Milliseconds:
        time = {"ms", 1e3};
        break;
    case TimeUnit::Seconds:
        break;
    }
    const double shown = value * time.scale;
    time.decimals = shown >= 100 ? 1 : shown >= 10 ? 2 : 3;
    return time;
}

std::string render_text_or_markdown(const std::string& heading, const Table& table,
                                    const std::vector<std::string>& notes, ReportFormat format) {
    const bool markdown = format == ReportFormat::Markdown;
    std::string out = heading + (markdown ? "\n\n" : "\n");
    out += markdown ? render_markdown(table) : render_aligned(table);
    if (!notes.empty()) {
        out += markdown ? "\n" : "";
        for (const auto& note : notes) {
            out += note + "\n";
        }
    }
    return out;
}

std::string contaminated_text(int used_failed, int used_loaded) {
    if (used_failed == 0 && used_loaded == 0) {
        return {};
    }
    return fmt::format(", {} failed and {} loaded used", used_failed, used_loaded);
}

std::string used_contaminated_text(const SampleGroup& group) {
    return fmt::format("{}/{}", group.used_failed, group.used_loaded);
}

std::string p_value_text(double p) {
    return std::isfinite(p) ? fmt::format("{:.3g}", p) : "-";
}

std::string interval_text(const Interval& interval, const ValueFormat& format, bool signed_values) {
    if (!std::isfinite(interval.low) || !std::isfinite(interval.high)) {
        return "";
    }
    return signed_values ? fmt::format("[{}, {}]", format.signed_value(interval.low),
                                       format.signed_value(interval.high))
                         : fmt::format("[{}, {}]", format(interval.low), format(interval.high));
}

std::string with_interval(const std::string& value, const std::string& interval) {
    return interval.empty() ? value : value + " " + interval;
}

nlohmann::json number_or_null(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json result_json(const stats::Result& result) {
    return {{"estimate", number_or_null(result.estimate)},
            {"low", number_or_null(result.interval.low)},
            {"high", number_or_null(result.interval.high)},
            {"confidence", number_or_null(result.confidence)},
            {"p", number_or_null(result.p_value)},
            {"method", result.method},
            {"exact", result.exact},
            {"insufficient", result.insufficient.empty() ? nlohmann::json(nullptr)
                                                         : nlohmann::json(result.insufficient)}};
}

nlohmann::json interval_json(const Interval& interval) {
    return nlohmann::json::array({number_or_null(interval.low), number_or_null(interval.high)});
}

nlohmann::json comparison_result_json(const Comparison& c) {
    return {{"n_a", c.n_a},
            {"n_b", c.n_b},
            {"median_a", number_or_null(c.median_a)},
            {"median_b", number_or_null(c.median_b)},
            {"difference", number_or_null(c.difference)},
            {"difference_ci", interval_json(c.difference_ci)},
            {"ci_coverage", number_or_null(c.coverage)},
            {"p", number_or_null(c.p_value)},
            {"p_holm", number_or_null(c.p_adjusted)},
            {"insufficient", c.insufficient},
            {"verdict", std::string(to_string(c.verdict))}};
}

nlohmann::json axis_json(const AxisValue& value) {
    switch (value.kind) {
    case AxisValue::Kind::Null:
    case AxisValue::Kind::Blob: // json_extract never yields one
        return nullptr;
    case AxisValue::Kind::Integer:
        return value.integer;
    case AxisValue::Kind::Real:
        return value.real;
    case AxisValue::Kind::Text:
        return value.text;
    }
    return nullptr;
}

nlohmann::json key_json(const std::vector<std::string>& axes, const std::vector<AxisValue>& key) {
    nlohmann::json object = nlohmann::json::object();
    for (size_t i = 0; i < axes.size() && i < key.size(); ++i) {
        object[axes[i]] = axis_json(key[i]);
    }
    return object;
}

std::string json_text(const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_document(const nlohmann::json& value) {
    return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace bb
