#include "report/table_renderer.h"

#include "report/render_support.h"
#include "util/markup_escape.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <utility>

namespace bb {

namespace {

// One line per row: a name holding a line break would otherwise tear the table apart.
std::string one_line(std::string_view text) {
    std::string line(text);
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return line;
}

std::string pad(std::string_view text, size_t width, bool right) {
    const size_t fill = width > display_width(text) ? width - display_width(text) : 0;
    return right ? std::string(fill, ' ') + std::string(text)
                 : std::string(text) + std::string(fill, ' ');
}

std::string json_number(const std::optional<double>& value) {
    // "{}" is the shortest text that reads back as the same double.
    return value && std::isfinite(*value) ? fmt::format("{}", *value) : "null";
}

// Stored params are a JSON object already; anything else is kept as a string.
std::string json_object_text(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{' && nlohmann::json::accept(text)) {
        return text;
    }
    return json_text(text);
}

std::string excluded_text(const SampleGroup& group) {
    std::vector<std::string> parts;
    if (group.failed > 0) {
        parts.push_back(fmt::format("{} failed", group.failed));
    }
    if (group.loaded > 0) {
        parts.push_back(fmt::format("{} loaded", group.loaded));
    }
    if (group.no_value > 0) {
        parts.push_back(fmt::format("{} no value", group.no_value));
    }
    std::string text;
    for (const auto& part : parts) {
        text += (text.empty() ? "" : ", ") + part;
    }
    return text.empty() ? "-" : text;
}

std::string axes_text(const std::vector<std::string>& axes) {
    std::string text;
    for (const auto& axis : axes) {
        text += (text.empty() ? "" : ", ") + axis;
    }
    return text;
}

std::string report_heading(const SampleSet& set) {
    return fmt::format("{}{}: {} boot{}, {} used, {} group{} by {}", set.metric,
                       set.unit.empty() || set.seconds ? "" : " (" + set.unit + ")", set.boots,
                       set.boots == 1 ? "" : "s", set.used, set.groups.size(),
                       set.groups.size() == 1 ? "" : "s", axes_text(set.axes));
}

std::string params_note(const SampleSet& set) {
    std::string note;
    for (const auto& [problem, boots] : set.params_not_applied) {
        note += fmt::format("warning: {} boot{} did not run as configured, {}\n", boots,
                            boots == 1 ? "" : "s", problem);
    }
    return note;
}

std::string inclusion_text(const SampleSet& set) {
    if (set.include_failed && set.include_loaded) {
        return "--include-failed and --include-loaded: failed and loaded samples with a value "
               "are used";
    }
    if (set.include_failed) {
        return "--include-failed: failed samples with a value are used; --include-loaded uses "
               "loaded ones";
    }
    if (set.include_loaded) {
        return "--include-loaded: loaded samples are used; --include-failed uses failed ones "
               "with a value";
    }
    return "--include-failed uses failed samples that have a value, --include-loaded loaded ones";
}

std::string exclusion_note(const SampleSet& set) {
    if (set.used == set.boots && !set.include_failed && !set.include_loaded) {
        return params_note(set);
    }
    return params_note(set) +
           fmt::format(
               "excluded samples are counted, never averaged: failed = outcome other than "
               "ok or a parameter that did not take,\nloaded = the host was not quiet (foreign "
               "load above the quiet limit in force), no value = metric not recorded\n({}; "
               "the column \"failed/loaded used\" counts those that entered a row)\n",
               inclusion_text(set));
}

// "0/2": failed and loaded boots among a group's used ones.
std::string used_contaminated_text(const SampleGroup& group) {
    return fmt::format("{}/{}", group.used_failed, group.used_loaded);
}

// "12.0 ms [10.0 ms, 14.0 ms]", or the median and why there is no interval at this n.
std::string median_text(const MedianEstimate& median, const ValueFormat& format) {
    if (!median.insufficient.empty()) {
        return fmt::format("{} (n<6: no 95 % interval)", format(median.median));
    }
    return with_interval(format(median.median), interval_text(median.ci, format, false));
}

std::string p_text(const Comparison& c) {
    if (!std::isfinite(c.p_value) || c.p_adjusted == c.p_value) {
        return p_value_text(c.p_value);
    }
    return fmt::format("{} ({})", p_value_text(c.p_value), p_value_text(c.p_adjusted));
}

// The unit for a difference and its interval: from the largest of the three, so an interval
// around a zero difference still prints in milliseconds when it is milliseconds wide.
double difference_scale(const Comparison& c) {
    double scale = 0;
    for (double value : {c.difference, c.difference_ci.low, c.difference_ci.high}) {
        if (std::isfinite(value)) {
            scale = std::max(scale, std::fabs(value));
        }
    }
    return scale;
}

std::string ratio_text(const Comparison& c) {
    if (!std::isfinite(c.ratio)) {
        return "-";
    }
    if (!std::isfinite(c.ratio_ci.low)) {
        return fmt::format("{:.3f} ({:+.1f}%)", c.ratio, c.relative_change * 100);
    }
    return fmt::format("{:.3f} [{:.3f}, {:.3f}]", c.ratio, c.ratio_ci.low, c.ratio_ci.high);
}

std::string sides_text(const GroupComparison& group) {
    if (!group.a) {
        return "only in B";
    }
    if (!group.b) {
        return "only in A";
    }
    return {};
}

std::string comparison_detail(const ComparisonSet& set, const GroupComparison& group) {
    const Comparison& c = group.comparison;
    if (!group.a || !group.b) {
        return fmt::format("{}: cannot compare", sides_text(group));
    }
    if (c.verdict == Comparison::Verdict::Insufficient) {
        return fmt::format("insufficient data: {} (n {} → {})", c.insufficient, c.n_a, c.n_b);
    }
    const ValueFormat medians(set.seconds, set.unit, c.median_a);
    const ValueFormat difference(set.seconds, set.unit, difference_scale(c));
    const std::string change =
        std::isfinite(c.ratio)
            ? fmt::format(" ({:+.1f}%, B / A {:.3f})", c.relative_change * 100, c.ratio)
            : "";
    return fmt::format("{}: median {} → {}{}, Hodges-Lehmann B − A {} ({} interval), "
                       "Mann-Whitney p {:.3g} (Holm {:.3g}), n {} → {}",
                       verdict_word(c.verdict, set.seconds), medians(c.median_a),
                       medians(c.median_b), change,
                       with_interval(difference.signed_value(c.difference),
                                     interval_text(c.difference_ci, difference, true)),
                       coverage_text(c.coverage), c.p_value, c.p_adjusted, c.n_a, c.n_b);
}

} // namespace

size_t display_width(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

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

std::string render_aligned(const Table& table) {
    std::vector<size_t> widths(table.headers.size(), 0);
    const auto measure = [&widths](const std::vector<std::string>& row) {
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(row[i]));
        }
    };
    measure(table.headers);
    for (const auto& row : table.rows) {
        measure(row);
    }
    const auto line = [&](const std::vector<std::string>& row) {
        std::string text;
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            const bool right = i < table.right_aligned.size() && table.right_aligned[i];
            text += (i == 0 ? "" : "  ") + pad(one_line(row[i]), widths[i], right);
        }
        while (!text.empty() && text.back() == ' ') {
            text.pop_back();
        }
        return text + "\n";
    };
    std::string out = line(table.headers);
    for (const auto& row : table.rows) {
        out += line(row);
    }
    return out;
}

std::string render_markdown(const Table& table) {
    const auto cell = [](const std::string& text) {
        std::string escaped;
        for (char c : text) {
            if (c == '|') {
                escaped += "\\|";
            } else if (c == '\n' || c == '\r') {
                escaped += ' ';
            } else {
                escaped += c;
            }
        }
        return escaped;
    };
    const auto line = [&cell](const std::vector<std::string>& row) {
        std::string text = "|";
        for (const auto& item : row) {
            text += " " + cell(item) + " |";
        }
        return text + "\n";
    };
    std::string out = line(table.headers) + "|";
    for (size_t i = 0; i < table.headers.size(); ++i) {
        const bool right = i < table.right_aligned.size() && table.right_aligned[i];
        out += right ? " ---: |" : " --- |";
    }
    out += "\n";
    for (const auto& row : table.rows) {
        out += line(row);
    }
    return out;
}

Table report_table(const SampleSet& set, const std::vector<GroupStatistics>& statistics) {
    Table table;
    table.headers = set.axes;
    table.right_aligned.assign(set.axes.size(), false);
    for (const char* header :
         {"n", "median [CI]", "CI covers", "mean ± σ", "min … max", "failed/loaded used"}) {
        table.headers.emplace_back(header);
        table.right_aligned.push_back(true);
    }
    table.headers.emplace_back("excluded");
    table.right_aligned.push_back(false);
    for (const auto& stats : statistics) {
        std::vector<std::string> row;
        for (const auto& value : stats.group->key) {
            row.push_back(value.display());
        }
        row.push_back(std::to_string(stats.summary.n));
        if (stats.summary.n == 0) {
            row.insert(row.end(), {"-", "-", "-", "-"});
        } else {
            const ValueFormat format(set.seconds, set.unit, stats.summary.median);
            row.push_back(median_text(stats.median, format));
            row.push_back(coverage_text(stats.median.coverage));
            row.push_back(
                fmt::format("{} ± {}", format(stats.summary.mean), format(stats.summary.stddev)));
            row.push_back(
                fmt::format("{} … {}", format(stats.summary.min), format(stats.summary.max)));
        }
        row.push_back(used_contaminated_text(*stats.group));
        row.push_back(excluded_text(*stats.group));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string render_report_text(const SampleSet& set,
                               const std::vector<GroupStatistics>& statistics) {
    return report_heading(set) + "\n" + render_aligned(report_table(set, statistics)) +
           exclusion_note(set);
}

std::string render_report_markdown(const SampleSet& set,
                                   const std::vector<GroupStatistics>& statistics) {
    const std::string note = exclusion_note(set);
    return report_heading(set) + "\n\n" + render_markdown(report_table(set, statistics)) +
           (note.empty() ? "" : "\n" + note);
}

std::string render_report_csv(const SampleSet& set) {
    std::string out;
    for (const auto& axis : set.axes) {
        out += csv_field(axis) + ",";
    }
    out += "boot_id,run_id,cell_key,outcome,foreign_load,use,metric,value,unit,params_json\n";
    for (const auto& group : set.groups) {
        std::string prefix;
        for (const auto& value : group.key) {
            prefix +=
                csv_field(value.kind == AxisValue::Kind::Missing ? "" : value.display()) + ",";
        }
        for (const auto& sample : group.samples) {
            // "{}" prints the shortest text that reads back as the same double.
            out += fmt::format("{}{},{},{},{},{},{},{},{},{},{}\n", prefix, sample.boot_id,
                               sample.run_id, csv_field(sample.cell_key), csv_field(sample.outcome),
                               sample.foreign_load ? fmt::format("{}", *sample.foreign_load) : "",
                               to_string(sample.use), csv_field(set.metric),
                               sample.value ? fmt::format("{}", *sample.value) : "",
                               csv_field(set.unit), csv_field(sample.params_json));
        }
    }
    return out;
}

std::string render_report_json(const SampleSet& set,
                               const std::vector<GroupStatistics>& statistics) {
    // Written by hand around small nlohmann pieces: a DOM of 100k samples with parsed params
    // took 2 s and 300 MB; this streams one sample per line (jq- and grep-friendly) and copies
    // the stored params text, which is JSON already.
    nlohmann::json head = {{"metric", set.metric},
                           {"unit", set.unit},
                           {"by", set.axes},
                           {"boots", set.boots},
                           {"used", set.used}};
    std::string out = json_text(head);
    out.pop_back(); // reopen the object: groups follow
    out += ",\"groups\":[";
    for (size_t g = 0; g < statistics.size(); ++g) {
        const GroupStatistics& stats = statistics[g];
        const SampleGroup& group = *stats.group;
        const bool empty = stats.summary.n == 0;
        const auto stat = [empty](double value) {
            return empty ? nlohmann::json(nullptr) : number_or_null(value);
        };
        const nlohmann::json fields = {
            {"key", key_json(set.axes, group.key)},
            {"label", group_label(set.axes, group.key)},
            {"n", stats.summary.n},
            {"median", stat(stats.median.median)},
            {"median_ci", interval_json(stats.median.ci)},
            {"median_ci_coverage", number_or_null(stats.median.coverage)},
            {"median_ci_insufficient", stats.median.insufficient},
            {"mean", stat(stats.summary.mean)},
            {"stddev", stat(stats.summary.stddev)},
            {"min", stat(stats.summary.min)},
            {"max", stat(stats.summary.max)},
            {"used_failed", group.used_failed},
            {"used_loaded", group.used_loaded},
            {"excluded",
             {{"failed", group.failed}, {"loaded", group.loaded}, {"no_value", group.no_value}}}};
        out += g == 0 ? "\n" : ",\n";
        out += json_text(fields);
        out.pop_back();
        out += ",\"samples\":[";
        for (size_t i = 0; i < group.samples.size(); ++i) {
            const Sample& sample = group.samples[i];
            out += i == 0 ? "\n" : ",\n";
            out += fmt::format(R"({{"boot_id":{},"run_id":{},"cell":{},"outcome":{},)"
                               R"("foreign_load":{},"use":"{}","value":{},"params":{}}})",
                               sample.boot_id, sample.run_id, json_text(sample.cell_key),
                               json_text(sample.outcome), json_number(sample.foreign_load),
                               to_string(sample.use), json_number(sample.value),
                               json_object_text(sample.params_json));
        }
        out += "]}";
    }
    out += "\n]}\n";
    return out;
}

std::string verdict_word(Comparison::Verdict verdict, bool seconds) {
    if (!seconds && verdict == Comparison::Verdict::Slower) {
        return "higher";
    }
    if (!seconds && verdict == Comparison::Verdict::Faster) {
        return "lower";
    }
    return std::string(to_string(verdict));
}

Table comparison_table(const ComparisonSet& set) {
    Table table;
    table.headers = set.axes;
    table.right_aligned.assign(set.axes.size(), false);
    for (const char* header : {"n A", "n B", "failed/loaded used A, B", "median A", "median B",
                               "B − A (HL) [CI]", "B / A [CI]", "CI covers", "p (Holm)"}) {
        table.headers.emplace_back(header);
        table.right_aligned.push_back(true);
    }
    table.headers.emplace_back("verdict");
    table.right_aligned.push_back(false);
    for (const auto& group : set.groups) {
        const Comparison& c = group.comparison;
        std::vector<std::string> row;
        for (const auto& value : group.key) {
            row.push_back(value.display());
        }
        row.push_back(group.a ? std::to_string(c.n_a) : "-");
        row.push_back(group.b ? std::to_string(c.n_b) : "-");
        row.push_back(fmt::format("{}, {}", group.a ? used_contaminated_text(*group.a) : "-",
                                  group.b ? used_contaminated_text(*group.b) : "-"));
        const ValueFormat medians(set.seconds, set.unit,
                                  std::isfinite(c.median_a) ? c.median_a : c.median_b);
        row.push_back(medians(c.median_a));
        row.push_back(medians(c.median_b));
        const ValueFormat difference(set.seconds, set.unit, difference_scale(c));
        row.push_back(std::isfinite(c.difference)
                          ? with_interval(difference.signed_value(c.difference),
                                          interval_text(c.difference_ci, difference, true))
                          : "-");
        row.push_back(ratio_text(c));
        row.push_back(coverage_text(c.coverage));
        row.push_back(p_text(c));
        const std::string sides = sides_text(group);
        row.push_back(sides.empty() ? verdict_word(c.verdict, set.seconds) : sides);
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string comparison_summary_line(const ComparisonSet& set) {
    const bool seconds = set.seconds;
    std::string line = fmt::format("{} group{}: {} {}, {} {}, {} no change, {} insufficient data",
                                   set.groups.size(), set.groups.size() == 1 ? "" : "s", set.slower,
                                   verdict_word(Comparison::Verdict::Slower, seconds), set.faster,
                                   verdict_word(Comparison::Verdict::Faster, seconds),
                                   set.no_change, set.insufficient);
    if (set.only_a > 0 || set.only_b > 0) {
        line += fmt::format(" ({} only in A, {} only in B)", set.only_a, set.only_b);
    }
    line += fmt::format("; verdicts at α {:g} from Holm-adjusted Mann-Whitney p-values", set.alpha);
    if (set.geomean_groups > 0) {
        line +=
            fmt::format("; geometric mean of B/A {:.4f} over {} group{} (descriptive)",
                        set.geomean_ratio, set.geomean_groups, set.geomean_groups == 1 ? "" : "s");
    }
    if (set.threshold > 0) {
        line += fmt::format("; changes within {:g}% not counted", set.threshold * 100);
    }
    return line;
}

std::string render_comparison_text(const ComparisonSet& set, const std::string& label_a,
                                   const std::string& label_b) {
    return fmt::format("{}: A = {}, B = {}\n", set.metric, label_a, label_b) +
           render_aligned(comparison_table(set)) + comparison_summary_line(set) + "\n";
}

std::string render_comparison_markdown(const ComparisonSet& set, const std::string& label_a,
                                       const std::string& label_b) {
    return fmt::format("{}: A = {}, B = {}\n\n", set.metric, label_a, label_b) +
           render_markdown(comparison_table(set)) + "\n" + comparison_summary_line(set) + "\n";
}

nlohmann::json comparison_json(const ComparisonSet& set, const std::string& label_a,
                               const std::string& label_b) {
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& group : set.groups) {
        const Comparison& c = group.comparison;
        groups.push_back(
            {{"key", key_json(set.axes, group.key)},
             {"label", group_label(set.axes, group.key)},
             {"in_a", group.a != nullptr},
             {"in_b", group.b != nullptr},
             {"n_a", c.n_a},
             {"n_b", c.n_b},
             {"median_a", number_or_null(c.median_a)},
             {"median_b", number_or_null(c.median_b)},
             {"difference", number_or_null(c.difference)},
             {"difference_ci", interval_json(c.difference_ci)},
             {"ratio", number_or_null(c.ratio)},
             {"ratio_ci", interval_json(c.ratio_ci)},
             {"relative_change", number_or_null(c.relative_change)},
             {"ci_coverage", number_or_null(c.coverage)},
             {"p", number_or_null(c.p_value)},
             {"p_holm", number_or_null(c.p_adjusted)},
             {"method", c.method},
             {"insufficient", c.insufficient},
             {"used_failed_loaded",
              {{"a", group.a ? nlohmann::json::array({group.a->used_failed, group.a->used_loaded})
                             : nlohmann::json(nullptr)},
               {"b", group.b ? nlohmann::json::array({group.b->used_failed, group.b->used_loaded})
                             : nlohmann::json(nullptr)}}},
             {"verdict", std::string(to_string(c.verdict))}});
    }
    return {{"metric", set.metric},
            {"unit", set.unit},
            {"by", set.axes},
            {"a", label_a},
            {"b", label_b},
            {"threshold", set.threshold},
            {"alpha", set.alpha},
            {"groups", std::move(groups)},
            {"counts",
             {{"slower", set.slower},
              {"faster", set.faster},
              {"no_change", set.no_change},
              {"insufficient", set.insufficient},
              {"only_a", set.only_a},
              {"only_b", set.only_b}}},
            {"geometric_mean_ratio",
             {{"groups", set.geomean_groups}, {"value", number_or_null(set.geomean_ratio)}}}};
}

std::string render_junit(const ComparisonSet& set, const std::string& suite_name) {
    const int tests = static_cast<int>(set.groups.size());
    const std::string counts =
        fmt::format("tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\"", tests, set.slower,
                    set.insufficient);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites name=\"bootbench compare\" {}>\n", counts);
    out += fmt::format("  <testsuite name=\"{}\" {}>\n", xml_escape(suite_name), counts);
    const std::string classname = xml_escape("bootbench.compare." + set.metric);
    for (const auto& group : set.groups) {
        const std::string name = xml_escape(group_label(set.axes, group.key));
        const std::string detail = xml_escape(comparison_detail(set, group));
        out += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", classname, name);
        switch (group.comparison.verdict) {
        case Comparison::Verdict::Slower:
            out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                               verdict_word(group.comparison.verdict, set.seconds), detail, detail);
            break;
        case Comparison::Verdict::Insufficient:
            out += fmt::format("      <skipped message=\"{}\"/>\n", detail);
            break;
        case Comparison::Verdict::Faster:
        case Comparison::Verdict::NoChange:
            out += fmt::format("      <system-out>{}</system-out>\n", detail);
            break;
        }
        out += "    </testcase>\n";
    }
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
        return std::string(text);
    }
    std::string quoted = "\"";
    for (char c : text) {
        quoted += c;
        if (c == '"') {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

} // namespace bb
