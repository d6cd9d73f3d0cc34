// `report --view phases` (phase_view.h) in text, Markdown, CSV and JSON.
#include "report/csv_format.h"
#include "report/phase_view.h"
#include "report/render_support.h"
#include "report/sample_query.h"
#include "stats/sorted.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

constexpr size_t k_phase_columns = k_phase_count + 1; // the phases, then the endpoint

double phase_median(const std::vector<double>& values) {
    return values.empty() ? std::numeric_limits<double>::quiet_NaN()
                          : stats::sorted_median_of(values);
}

// One unit for the whole table, from the longest endpoint (phases are parts of it).
ColumnUnit phase_unit(const PhaseSet& set) {
    double largest = 0;
    for (const auto& group : set.groups) {
        for (size_t p = 0; p < k_phase_columns; ++p) {
            const double median = phase_median(phase_group_values(group, p));
            largest = std::isfinite(median) ? std::max(largest, std::fabs(median)) : largest;
        }
    }
    return column_unit(true, "s", largest);
}

// "1.234", "1.234 (n=7)" when fewer boots than the group's have the phase, "-" when none.
std::string phase_cell(const PhaseGroup& group, size_t phase, const ColumnUnit& unit) {
    const auto& values = phase_group_values(group, phase);
    if (values.empty()) {
        return "-";
    }
    const std::string median = unit.number(phase_median(values));
    return static_cast<int>(values.size()) < group.entered
               ? fmt::format("{} (n={})", median, values.size())
               : median;
}

std::string spans_of(size_t phase) {
    const BootPhaseInfo& info = phase_info(phase);
    return fmt::format("{} → {}", moment_label(info.from), moment_label(info.to));
}

nlohmann::json median_json(const std::vector<double>& values, const EstimateOptions& options) {
    const MedianEstimate m = median_estimate(values, options);
    return {{"estimate", number_or_null(m.median)},
            {"low", number_or_null(m.ci.low)},
            {"high", number_or_null(m.ci.high)},
            {"coverage", number_or_null(m.coverage)},
            {"insufficient",
             m.insufficient.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.insufficient)}};
}

nlohmann::json phase_group_json(const PhaseSet& set, const PhaseGroup& group,
                                const EstimateOptions& options) {
    nlohmann::json phases = nlohmann::json::array();
    for (size_t p = 0; p < k_phase_count; ++p) {
        phases.push_back({{"name", k_boot_phases[p].name},
                          {"n", group.phases[p].size()},
                          {"lacking", group.lacking[p]},
                          {"median", median_json(group.phases[p], options)},
                          {"values", group.phases[p]}});
    }
    return {{"key", key_json(set.axes, group.key)},
            {"label", group_label(set.axes, group.key)},
            {"boots", group.boots},
            {"entered", group.entered},
            {"excluded", group.excluded},
            {"timed_from_marker", group.from_marker},
            {"used_failed", group.used_failed},
            {"used_loaded", group.used_loaded},
            {"phases", std::move(phases)},
            {"endpoint",
             {{"n", group.endpoint.size()},
              {"lacking", group.lacking_endpoint},
              {"median", median_json(group.endpoint, options)},
              {"values", group.endpoint}}}};
}

// Long form: one line per group and phase, in stored seconds.
Table phase_csv_table(const PhaseSet& set, const EstimateOptions& options) {
    Table table;
    table.headers = set.axes;
    for (const char* header : {"phase", "from", "to", "n", "lacking", "median_s", "ci_low_s",
                               "ci_high_s", "ci_coverage"}) {
        table.headers.emplace_back(header);
    }
    for (const auto& group : set.groups) {
        for (size_t p = 0; p < k_phase_columns; ++p) {
            const BootPhaseInfo& info = phase_info(p);
            const auto& values = phase_group_values(group, p);
            const MedianEstimate m = median_estimate(values, options);
            std::vector<std::string> row;
            for (const auto& value : group.key) {
                row.push_back(value.label());
            }
            const auto plain = [](double v) {
                return std::isfinite(v) ? fmt::format("{}", v) : "";
            };
            row.insert(
                row.end(),
                {std::string(info.name), std::string(moment_label(info.from)),
                 std::string(moment_label(info.to)), std::to_string(values.size()),
                 std::to_string(p < k_phase_count ? group.lacking[p] : group.lacking_endpoint),
                 plain(m.median), plain(m.ci.low), plain(m.ci.high), plain(m.coverage)});
            table.rows.push_back(std::move(row));
        }
    }
    return table;
}

// "pre-banner: 80 of 80 boots show no first byte or no banner …", one per phase lacking any,
// then why a moment may be missing.
std::vector<std::string> lacking_notes(const PhaseSet& set) {
    std::vector<std::string> notes;
    bool console_moment = false;
    for (size_t p = 0; p < k_phase_columns; ++p) {
        int lacking = 0;
        for (const auto& group : set.groups) {
            lacking += p < k_phase_count ? group.lacking[p] : group.lacking_endpoint;
        }
        if (lacking == 0) {
            continue;
        }
        const BootPhaseInfo& info = phase_info(p);
        console_moment = console_moment || info.from == BootMoment::Banner ||
                         info.to == BootMoment::Banner || info.to == BootMoment::RunInit;
        notes.push_back(fmt::format(
            "{}: {} of {} boots show no {} or no {} on the console and add nothing to it",
            info.name, lacking, set.entered, moment_label(info.from), moment_label(info.to)));
    }
    if (console_moment) {
        notes.emplace_back("(`quiet` on the kernel command line prints neither the banner nor Run "
                           "/init; a boot without a marker failed and entered by "
                           "--include-failed)");
    }
    return notes;
}

} // namespace

std::string phase_spans_text() {
    std::string text;
    for (size_t p = 0; p < k_phase_columns; ++p) {
        text += fmt::format("{}{} = {}", p == 0 ? "" : "; ", phase_info(p).name, spans_of(p));
    }
    return text;
}

Table phase_table(const PhaseSet& set) {
    const ColumnUnit unit = phase_unit(set);
    Table table;
    table.headers = set.axes;
    table.right_aligned.assign(set.axes.size(), false);
    table.headers.emplace_back("boots");
    table.headers.emplace_back("failed/loaded used");
    table.right_aligned.insert(table.right_aligned.end(), {true, true});
    for (size_t p = 0; p < k_phase_columns; ++p) {
        table.headers.push_back(unit.header(std::string(phase_info(p).name)));
        table.right_aligned.push_back(true);
    }
    table.label_columns = set.axes.size();
    for (const auto& header : table.headers) {
        table.said_once_if_uniform.push_back(header == "failed/loaded used");
    }
    for (const auto& group : set.groups) {
        std::vector<std::string> row;
        for (const auto& value : group.key) {
            row.push_back(value.label());
        }
        row.push_back(std::to_string(group.entered));
        row.push_back(fmt::format("{}/{}", group.used_failed, group.used_loaded));
        for (size_t p = 0; p < k_phase_columns; ++p) {
            row.push_back(phase_cell(group, p, unit));
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string phase_heading(const PhaseSet& set) {
    return fmt::format("where boot time goes, by {}: the median of each phase over the boots "
                       "that show both its moments (one value per boot: the difference of two "
                       "moments on the host's clock from qemu's start)",
                       fmt::join(set.axes, ", "));
}

std::vector<std::string> phase_notes(const PhaseSet& set) {
    std::vector<std::string> notes{"phases: " + phase_spans_text()};
    const auto lacking = lacking_notes(set);
    notes.insert(notes.end(), lacking.begin(), lacking.end());
    for (const auto& [marker, count] : set.from_marker) {
        notes.push_back(fmt::format("left out: {} boot{} whose endpoint is timed from the marker "
                                    "{} (a nested boot's L2), not from qemu's start: it does not "
                                    "divide into these phases",
                                    count, count == 1 ? "" : "s", marker));
    }
    int excluded = 0;
    for (const auto& group : set.groups) {
        excluded += group.excluded;
    }
    if (excluded > 0) {
        notes.push_back(fmt::format("excluded: {} boot{} (failed, loaded or without any moment), "
                                    "as in every report",
                                    excluded, excluded == 1 ? "" : "s"));
    }
    notes.emplace_back("each boot's phases add up to its endpoint; their medians need not add up "
                       "to the endpoint's median");
    return notes;
}

nlohmann::json phase_view_json(const PhaseSet& set, const EstimateOptions& options) {
    const auto described = [](const BootPhaseInfo& info) {
        return nlohmann::json{{"name", info.name},
                              {"from", moment_label(info.from)},
                              {"to", moment_label(info.to)},
                              {"meaning", info.meaning}};
    };
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& info : k_boot_phases) {
        phases.push_back(described(info));
    }
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& group : set.groups) {
        groups.push_back(phase_group_json(set, group, options));
    }
    return {{"view", "phases"},
            {"unit", "s"},
            {"by", set.axes},
            {"phases", std::move(phases)},
            {"endpoint", described(k_endpoint_phase)},
            {"boots", set.boots},
            {"entered", set.entered},
            {"timed_from_marker", set.from_marker},
            {"include_failed", set.include_failed},
            {"include_loaded", set.include_loaded},
            {"groups", std::move(groups)}};
}

std::string render_phase_view(const PhaseSet& set, ReportFormat format,
                              const EstimateOptions& options) {
    switch (format) {
    case ReportFormat::Text:
    case ReportFormat::Markdown:
        return render_text_or_markdown(phase_heading(set), phase_table(set), phase_notes(set),
                                       format);
    case ReportFormat::Csv:
        return render_table_csv(phase_csv_table(set, options));
    case ReportFormat::Json:
        return json_document(phase_view_json(set, options));
    case ReportFormat::Html:
        break; // render_phase_html: it needs the page's context
    }
    return {};
}

} // namespace bb
