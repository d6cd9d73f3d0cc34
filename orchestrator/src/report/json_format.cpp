#include "report/json_format.h"

#include "report/render_support.h"

#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <utility>

namespace bb {

namespace {

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

} // namespace

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
             {"failed",
              {{"a", group.failed_a},
               {"boots_a", group.boots_a},
               {"b", group.failed_b},
               {"boots_b", group.boots_b},
               {"p", group.failure_p},
               {"b_fails_more", group.fails_more}}},
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
              {"failing", set.failing},
              {"faster", set.faster},
              {"no_change", set.no_change},
              {"insufficient", set.insufficient},
              {"only_a", set.only_a},
              {"only_b", set.only_b}}},
            {"geometric_mean_ratio",
             {{"groups", set.geomean_groups}, {"value", number_or_null(set.geomean_ratio)}}}};
}

} // namespace bb
