#include "report/answer_lines.h"
#include "report/csv_format.h"
#include "report/html_report.h"
#include "report/render_support.h"
#include "report/text_table.h"
#include "report/verdict.h"
#include "util/markup_escape.h"
#include "util/terminal.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

// "1.021 [1.003, 1.040] 96.1 %"; the interval only when the method answered at the level.
std::string ratio_text(const stats::Result& ratio) {
    if (!std::isfinite(ratio.estimate)) {
        return "-";
    }
    if (!ratio.answered() || !std::isfinite(ratio.interval.low)) {
        return fmt::format("{:.3f}", ratio.estimate);
    }
    return fmt::format("{:.3f} [{:.3f}, {:.3f}] {}", ratio.estimate, ratio.interval.low,
                       ratio.interval.high, coverage_text(ratio.confidence));
}

std::string shift_text(const stats::Result& shift, bool seconds) {
    if (!std::isfinite(shift.estimate)) {
        return "-";
    }
    const ValueFormat format(seconds, "", std::abs(shift.estimate));
    const std::string value = format.signed_value(shift.estimate);
    if (!shift.answered() || !std::isfinite(shift.interval.low)) {
        return value;
    }
    return with_interval(value, interval_text(shift.interval, format, true));
}

std::string method_text(const stats::Result& result, bool paired) {
    return fmt::format("{}, {}", paired ? "signed-rank" : "MW/HL",
                       result.exact ? "exact" : "normal approx.");
}

std::string n_text(const VerdictRow& row, bool paired) {
    if (paired) {
        return row.unpaired == 0 ? fmt::format("{} pairs", row.n_a)
                                 : fmt::format("{} pairs ({} unpaired)", row.n_a, row.unpaired);
    }
    return fmt::format("{}/{}", row.n_a, row.n_b);
}

std::string secondary_heading(const VerdictTable& table) {
    const std::string role =
        table.within ? fmt::format("premise: holds when the whole interval of B / A lies "
                                   "within ±{:g} %",
                                   *table.within * 100)
                     : std::string("reported beside the primary, not a test of it");
    return fmt::format("secondary endpoint {}, declared with run {}'s analysis (same comparisons, "
                       "pairing and α, its own Holm family; {})",
                       table.analysis.endpoint.label(), table.run_id, role);
}

std::string heading(const VerdictTable& table) {
    const Analysis& analysis = table.analysis;
    // Holm adjusts the p-values only: each interval keeps its own level (issue 48 item 9).
    std::string family =
        analysis.family == HolmFamily::All
            ? fmt::format("Holm over the {} comparison(s) (p adjusted, intervals unadjusted)",
                          table.rows.size())
            : "Holm within each condition (p adjusted, intervals unadjusted)";
    return fmt::format("verdict of run {} ({}): endpoint {}, {} B against A within each value of "
                       "the other axes, {}, α {}, {}",
                       table.run_id, table.experiment, analysis.endpoint.label(), analysis.axis,
                       analysis.paired ? "paired by round" : "independent boots",
                       ValueFormat::plain(analysis.alpha), family);
}

std::vector<std::string> left_out_notes(const VerdictTable& table) {
    int total = 0;
    std::vector<std::string> notes;
    for (const auto& row : table.rows) {
        total += row.left_out_a + row.left_out_b;
        if (row.left_out_a + row.left_out_b > 0) {
            notes.push_back(fmt::format("  {}: {} of A ({}), {} of B ({})", row.condition,
                                        row.left_out_a, row.pair.a, row.left_out_b, row.pair.b));
        }
    }
    notes.insert(notes.begin(),
                 fmt::format("left out (failed, loaded or without the endpoint; counted per "
                             "comparison): {}",
                             total));
    return notes;
}

std::string trend_heading(const VerdictTable& table) {
    const Analysis& analysis = table.analysis;
    return fmt::format(
        "verdict of run {} ({}): endpoint {}, ordered trend over {} ({}), "
        "Jonckheere–Terpstra within each value of the other axes, independent "
        "boots, α {}, {}",
        table.run_id, table.experiment, analysis.endpoint.label(), analysis.axis,
        fmt::join(analysis.trend, " < "), ValueFormat::plain(analysis.alpha),
        analysis.family == HolmFamily::All
            ? fmt::format("Holm over the {} test(s)",
                          std::count_if(table.rows.begin(), table.rows.end(),
                                        [](const VerdictRow& row) { return row.trend.answered(); }))
            : "Holm within each condition");
}

// One row per condition, then each condition's medians in the declared order.
VerdictDocument trend_document(const VerdictTable& table) {
    const Analysis& analysis = table.analysis;
    VerdictDocument document;
    document.heading = trend_heading(table);
    Table& out = document.table;
    out.headers = {"condition", "values", "n", "J (no trend)", "method", "p", "p Holm", "decision"};
    out.right_aligned.assign(out.headers.size(), false);
    out.label_columns = 1;
    for (const auto& row : table.rows) {
        int boots = 0;
        for (const int n : row.trend_n) {
            boots += n;
        }
        const bool tested = row.trend.answered();
        out.rows.push_back(
            {row.condition, fmt::format("{} of {}", row.n_a, analysis.trend.size()),
             std::to_string(boots),
             tested ? fmt::format("{:g} ({:g})", row.trend.estimate, row.trend_null_mean) : "-",
             tested ? (row.trend.exact ? "JT, exact" : "JT, " + row.trend.method) : "-",
             p_value_text(row.trend.p_value), p_value_text(row.p_adjusted), row.decision});
        std::vector<std::string> items;
        const double representative =
            row.trend_medians.empty() ? 1 : std::abs(row.trend_medians.front());
        const ValueFormat format(analysis.endpoint.kind == EndpointKind::BootSeconds, "",
                                 std::isfinite(representative) ? representative : 1);
        for (size_t i = 0; i < analysis.trend.size(); ++i) {
            if (row.trend_n[i] > 0) {
                items.push_back(fmt::format("{} {} (n {})", analysis.trend[i],
                                            format(row.trend_medians[i]), row.trend_n[i]));
            }
        }
        document.notes.push_back(
            fmt::format("  {}: medians {}", row.condition, fmt::join(items, ", ")));
    }
    int left_out = 0;
    for (const auto& row : table.rows) {
        left_out += row.left_out_a;
    }
    document.notes.push_back(
        fmt::format("left out (failed, loaded or without the endpoint): {}", left_out));
    return document;
}

VerdictDocument comparison_document(const VerdictTable& table) {
    const Analysis& analysis = table.analysis;
    const bool seconds = analysis.endpoint.kind == EndpointKind::BootSeconds;
    VerdictDocument document;
    document.heading = heading(table);
    Table& out = document.table;
    out.headers = {"condition", "A",      "B", "n A/B",  analysis.ratio ? "B/A [CI]" : "",
                   "shift B−A", "method", "p", "p Holm", "decision"};
    if (!analysis.ratio) {
        out.headers.erase(out.headers.begin() + 4);
    }
    out.right_aligned.assign(out.headers.size(), false);
    // The condition names the row; A, B and the method are said once when every row shares them,
    // and the shift (the ratio's twin) is the first to go on a narrow screen, then the unadjusted
    // p (the decision reads the Holm-adjusted one).
    out.label_columns = 1;
    out.said_once_if_uniform.assign(out.headers.size(), false);
    out.leave_out_order.assign(out.headers.size(), 0);
    for (size_t column = 0; column < out.headers.size(); ++column) {
        const std::string& header = out.headers[column];
        out.said_once_if_uniform[column] = header == "A" || header == "B" || header == "method";
        out.leave_out_order[column] = header == "shift B−A" && analysis.ratio ? 2
                                      : header == "p"                         ? 1
                                                                              : 0;
    }
    for (const auto& row : table.rows) {
        std::vector<std::string> cells{row.condition, row.pair.a, row.pair.b,
                                       n_text(row, analysis.paired)};
        if (analysis.ratio) {
            cells.push_back(ratio_text(row.ratio));
        }
        const stats::Result& primary = row.primary(analysis);
        cells.insert(cells.end(),
                     {shift_text(row.shift, seconds), method_text(primary, analysis.paired),
                      p_value_text(primary.p_value), p_value_text(row.p_adjusted), row.decision});
        out.rows.push_back(std::move(cells));
    }
    document.notes = left_out_notes(table);
    return document;
}

// The primary's document, then each secondary endpoint's, headed as such.
std::vector<VerdictDocument> verdict_documents(const VerdictTable& table) {
    std::vector<VerdictDocument> documents{verdict_document(table)};
    for (const auto& secondary : table.secondary) {
        documents.push_back(comparison_document(secondary));
        documents.back().heading = secondary_heading(secondary);
    }
    return documents;
}

// One CSV table: with secondary endpoints, a first column names each row's endpoint.
Table csv_table(const VerdictTable& table, const std::vector<VerdictDocument>& documents) {
    if (documents.size() == 1) {
        return documents.front().table;
    }
    Table out = documents.front().table;
    out.headers.insert(out.headers.begin(), "endpoint");
    out.right_aligned.insert(out.right_aligned.begin(), false);
    out.rows.clear();
    for (size_t i = 0; i < documents.size(); ++i) {
        const VerdictTable& source = i == 0 ? table : table.secondary[i - 1];
        for (auto row : documents[i].table.rows) {
            row.insert(row.begin(), source.analysis.endpoint.label());
            out.rows.push_back(std::move(row));
        }
    }
    return out;
}

std::string verdict_html_body(const VerdictDocument& document) {
    std::string body = fmt::format("<p class=\"bb-note\">{}</p>\n", html_escape(document.heading)) +
                       html_table(document.table);
    for (const auto& note : document.notes) {
        body += fmt::format("<p class=\"bb-note\">{}</p>\n", html_escape(note));
    }
    return body;
}

std::string verdict_html_bodies(const std::vector<VerdictDocument>& documents) {
    std::string body;
    for (const auto& document : documents) {
        body += verdict_html_body(document);
    }
    return body;
}

std::string answers_html(const VerdictTable& table) {
    std::string html;
    for (const auto& answer : verdict_answers(table)) {
        html += fmt::format("<p class=\"bb-note\"><strong>{}</strong></p>\n", html_escape(answer));
    }
    return html;
}

std::string verdict_html(const VerdictTable& table, const std::vector<VerdictDocument>& documents) {
    HtmlContext context;
    context.title = fmt::format("bootbench verdict: run {} ({})", table.run_id, table.experiment);
    return html_page(context, verdict_html_bodies(documents) + answers_html(table));
}

} // namespace

VerdictDocument verdict_document(const VerdictTable& table) {
    return table.analysis.is_trend() ? trend_document(table) : comparison_document(table);
}

std::string render_verdict(const VerdictTable& table) {
    return render_verdict(table, ReportFormat::Text);
}

std::string verdict_html_section(const VerdictTable& table) {
    return fmt::format("<h2>{}</h2>\n",
                       html_escape(fmt::format("The declared analysis: run {} ({})", table.run_id,
                                               table.experiment))) +
           verdict_html_bodies(verdict_documents(table)) + answers_html(table);
}

std::string render_verdict(const VerdictTable& table, ReportFormat format) {
    const std::vector<VerdictDocument> documents = verdict_documents(table);
    switch (format) {
    case ReportFormat::Json:
        return json_document(verdict_json(table));
    case ReportFormat::Csv:
        return render_table_csv(csv_table(table, documents));
    case ReportFormat::Html:
        return verdict_html(table, documents);
    case ReportFormat::Markdown:
    case ReportFormat::Text:
        break;
    }
    std::string text;
    for (const auto& document : documents) {
        text += (text.empty() ? "" : "\n") +
                render_text_or_markdown(document.heading, document.table, document.notes, format);
    }
    // Last, where the eye lands: the primary table's answer in sentences (answer_lines.h).
    text += "\n" + answer_block(verdict_answers(table), format == ReportFormat::Markdown);
    // Wrapped here, not only by `report`: `run` prints the same verdict, and the two must read
    // alike.
    return format == ReportFormat::Text ? wrap_long_lines(text, table_width()) : text;
}

nlohmann::json verdict_json(const VerdictTable& table) {
    nlohmann::json rows = nlohmann::json::array();
    const std::vector<std::string> answers = verdict_answers(table);
    if (table.analysis.is_trend()) {
        for (size_t i = 0; i < table.rows.size(); ++i) {
            const VerdictRow& row = table.rows[i];
            nlohmann::json medians = nlohmann::json::array();
            for (const double median : row.trend_medians) {
                medians.push_back(number_or_null(median));
            }
            rows.push_back({{"condition", row.condition},
                            {"values", table.analysis.trend},
                            {"n", row.trend_n},
                            {"medians", medians},
                            {"left_out", row.left_out_a},
                            {"trend", result_json(row.trend)},
                            {"j_no_trend", number_or_null(row.trend_null_mean)},
                            {"p_holm", number_or_null(row.p_adjusted)},
                            {"decision", row.decision},
                            {"answer", answers[i]}});
        }
        return {{"run_id", table.run_id},
                {"experiment", table.experiment},
                {"heading", trend_heading(table)},
                {"alpha", table.analysis.alpha},
                {"paired", false},
                {"trends", rows}};
    }
    for (size_t i = 0; i < table.rows.size(); ++i) {
        const VerdictRow& row = table.rows[i];
        rows.push_back({{"condition", row.condition},
                        {"a", row.pair.a},
                        {"b", row.pair.b},
                        {"n_a", row.n_a},
                        {"n_b", row.n_b},
                        {"left_out_a", row.left_out_a},
                        {"left_out_b", row.left_out_b},
                        {"unpaired", row.unpaired},
                        {"ratio", table.analysis.ratio ? result_json(row.ratio) : nullptr},
                        {"shift", result_json(row.shift)},
                        {"p_holm", number_or_null(row.p_adjusted)},
                        {"decision", row.decision},
                        {"answer", answers[i]}});
    }
    nlohmann::json json = {{"run_id", table.run_id},          {"experiment", table.experiment},
                           {"heading", heading(table)},       {"alpha", table.analysis.alpha},
                           {"paired", table.analysis.paired}, {"comparisons", rows}};
    if (!table.secondary.empty()) {
        json["secondary"] = nlohmann::json::array();
        for (const auto& secondary : table.secondary) {
            nlohmann::json item = verdict_json(secondary);
            item["heading"] = secondary_heading(secondary);
            item["endpoint"] = secondary.analysis.endpoint.label();
            item["within"] = secondary.within ? nlohmann::json(*secondary.within) : nullptr;
            json["secondary"].push_back(std::move(item));
        }
    }
    return json;
}

} // namespace bb
