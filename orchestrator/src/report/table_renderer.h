#pragma once
// Renders what sample_query computed: report tables (aligned text, Markdown, CSV, JSON),
// comparison tables and JUnit XML. Computes no statistics of its own.
#include "report/sample_query.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

enum class ReportFormat { Text, Markdown, Csv, Json, Html };

std::optional<ReportFormat> parse_report_format(std::string_view name);

// A table before layout: the text and Markdown renderers share it.
struct Table {
    std::vector<std::string> headers;
    std::vector<bool> right_aligned; // per column
    std::vector<std::vector<std::string>> rows;
    size_t emphasized_rows = 0; // leading rows that stand out in HTML (a geometric-mean row)
};

// Characters on screen: UTF-8 sequences, not bytes ("±", "µ", "…" and "−" are one each).
size_t display_width(std::string_view text);

// Columns padded to their widest cell (in characters, not bytes: "±" and "µ" are one column).
std::string render_aligned(const Table& table);
// A GitHub-flavoured Markdown table; '|' inside cells is escaped.
std::string render_markdown(const Table& table);

// One column per axis, then n, median [order-statistic interval], its coverage, mean ± σ, min …
// max, failed/loaded boots used, excluded counts. All numbers of a row share one unit, picked from
// its median.
Table report_table(const SampleSet& set, const std::vector<GroupStatistics>& statistics);

// The report as a whole: a heading line, the table, a note on excluded samples.
std::string render_report_text(const SampleSet& set,
                               const std::vector<GroupStatistics>& statistics);
std::string render_report_markdown(const SampleSet& set,
                                   const std::vector<GroupStatistics>& statistics);
// Every sample, used or not, one row each: axis values, boot id, run id, cell, outcome,
// foreign load, use, metric, value, unit, params (JSON text).
std::string render_report_csv(const SampleSet& set);
// Groups with their statistics and every raw sample with its params, one sample per line.
std::string render_report_json(const SampleSet& set,
                               const std::vector<GroupStatistics>& statistics);

// "slower"/"faster" for times; for other metrics "higher"/"lower" (lower is still better).
std::string verdict_word(Comparison::Verdict verdict, bool seconds);

Table comparison_table(const ComparisonSet& set);
// `label_a`/`label_b` name the two sides ("run 3 (smoke-matrix, …)").
std::string render_comparison_text(const ComparisonSet& set, const std::string& label_a,
                                   const std::string& label_b);
std::string render_comparison_markdown(const ComparisonSet& set, const std::string& label_a,
                                       const std::string& label_b);
nlohmann::json comparison_json(const ComparisonSet& set, const std::string& label_a,
                               const std::string& label_b);
// The one-line tally: "3 cells: 1 slower, 2 no change, …; geometric mean of B/A 1.012 […]".
std::string comparison_summary_line(const ComparisonSet& set);
// One testcase per group: <failure> when slower, <skipped> when there is not enough data.
std::string render_junit(const ComparisonSet& set, const std::string& suite_name);

// RFC 4180 field: quoted (with quotes doubled) when it holds a comma, quote, CR or LF.
std::string csv_field(std::string_view text);
// Escapes & < > " ' and replaces control characters XML 1.0 forbids.

} // namespace bb
