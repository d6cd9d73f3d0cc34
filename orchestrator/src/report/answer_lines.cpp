#include "report/answer_lines.h"

#include "report/comparison_table.h"
#include "report/render_support.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace bb {

namespace {

std::string endpoint_words(const Analysis& analysis) {
    return analysis.endpoint.kind == EndpointKind::BootSeconds ? "boot time"
                                                               : analysis.endpoint.label();
}

std::string boots_words(const VerdictRow& row, bool paired) {
    if (paired) {
        return fmt::format("{} pairs", row.n_a);
    }
    return fmt::format("{} vs {} boots", row.n_b, row.n_a); // B's first, as the sentence names B
}

// "(boot time, hz=250, 4 vs 4 boots, exact p 0.029, Holm p 0.058, α 0.05)"
std::string evidence(const Analysis& analysis, const VerdictRow& row) {
    const stats::Result& primary = row.primary(analysis);
    std::string text = endpoint_words(analysis);
    if (row.condition != "all boots") {
        text += ", " + row.condition;
    }
    text += ", " + boots_words(row, analysis.paired);
    if (std::isfinite(primary.p_value)) {
        text += fmt::format(", {} p {}", primary.exact ? "exact" : "approx.",
                            p_value_text(primary.p_value));
    }
    if (std::isfinite(row.p_adjusted) && row.p_adjusted != primary.p_value) {
        text += ", Holm p " + p_value_text(row.p_adjusted);
    }
    return "(" + text + ", α " + ValueFormat::plain(analysis.alpha) + ")";
}

std::string factor_text(double estimate, const stats::Interval& interval) {
    if (!std::isfinite(interval.low) || !std::isfinite(interval.high)) {
        return fmt::format("{:.2f}×", estimate);
    }
    return fmt::format("{:.2f}× [{:.2f}, {:.2f}]", estimate, interval.low, interval.high);
}

// The size of a decided difference, always as a factor above 1: B / A when B is higher,
// A / B (the interval's ends swapped) when B is lower.
std::string decided_size(const Analysis& analysis, const VerdictRow& row) {
    const stats::Result& primary = row.primary(analysis);
    if (!analysis.ratio) {
        const ValueFormat format(analysis.endpoint.kind == EndpointKind::BootSeconds, "",
                                 std::abs(primary.estimate));
        const std::string interval = interval_text(primary.interval, format, true);
        return with_interval(format.signed_value(primary.estimate), interval);
    }
    if (primary.estimate >= 1) {
        return factor_text(primary.estimate, primary.interval);
    }
    return factor_text(1 / primary.estimate, {1 / primary.interval.high, 1 / primary.interval.low});
}

// "the interval excludes changes beyond −7.0 % and +11.0 %": what an undecided row still rules
// out, in the table's own numbers.
std::string excluded_text(const Analysis& analysis, const stats::Result& primary) {
    const stats::Interval& interval = primary.interval;
    if (!primary.answered() || !std::isfinite(interval.low) || !std::isfinite(interval.high)) {
        return "";
    }
    if (analysis.ratio) {
        return fmt::format("{} [{:.2f}, {:.2f}]; the interval excludes changes beyond {:+.1f} % "
                           "and {:+.1f} %",
                           fmt::format("{:.2f}×", primary.estimate), interval.low, interval.high,
                           (interval.low - 1) * 100, (interval.high - 1) * 100);
    }
    const ValueFormat format(analysis.endpoint.kind == EndpointKind::BootSeconds, "",
                             std::abs(primary.estimate));
    return fmt::format(
        "{}; the interval excludes shifts beyond {} and {}",
        with_interval(format.signed_value(primary.estimate), interval_text(interval, format, true)),
        format.signed_value(interval.low), format.signed_value(interval.high));
}

std::string comparison_answer(const Analysis& analysis, const VerdictRow& row) {
    const std::string& decision = row.decision;
    const std::string& a = row.pair.a;
    const std::string& b = row.pair.b;
    if (decision.starts_with("B ")) { // B slower | faster | better | worse
        const std::string word = decision.substr(2);
        if (analysis.ratio) {
            return fmt::format("{} is {} {} than {} {}", b, decided_size(analysis, row), word, a,
                               evidence(analysis, row));
        }
        return fmt::format("{} is {} than {} by {} {}", b, word, a, decided_size(analysis, row),
                           evidence(analysis, row));
    }
    const std::string excluded = excluded_text(analysis, row.primary(analysis));
    const std::string head = fmt::format("{}: {} vs {}", decision, b, a);
    return excluded.empty() ? fmt::format("{} {}", head, evidence(analysis, row))
                            : fmt::format("{}: {} {}", head, excluded, evidence(analysis, row));
}

std::string trend_answer(const Analysis& analysis, const VerdictRow& row) {
    std::string text = fmt::format("{}: {} over {} ({})", row.condition, row.decision,
                                   analysis.axis, fmt::join(analysis.trend, " < "));
    if (row.trend.answered()) {
        text += fmt::format(" ({}, JT p {}, Holm p {}, α {})", endpoint_words(analysis),
                            p_value_text(row.trend.p_value), p_value_text(row.p_adjusted),
                            ValueFormat::plain(analysis.alpha));
    }
    return text;
}

// "(boot_seconds, hz=250, 8 vs 8 boots, p 0.003, Holm p 0.01, α 0.05)"
std::string group_evidence(const ComparisonSet& set, const GroupComparison& group) {
    const Comparison& c = group.comparison;
    std::string text = set.seconds ? std::string("boot time") : set.metric;
    const std::string label = group_label(set.axes, group.key);
    if (!label.empty()) {
        text += ", " + label;
    }
    text += fmt::format(", {} vs {} boots, p {}", c.n_b, c.n_a, p_value_text(c.p_value));
    if (std::isfinite(c.p_adjusted) && c.p_adjusted != c.p_value) {
        text += ", Holm p " + p_value_text(c.p_adjusted);
    }
    return "(" + text + ", α " + ValueFormat::plain(set.alpha) + ")";
}

std::string decided_group(const ComparisonSet& set, const GroupComparison& group) {
    const Comparison& c = group.comparison;
    const std::string word = verdict_word(c.verdict, set.seconds);
    if (!std::isfinite(c.ratio) || c.ratio <= 0) {
        const ValueFormat format(set.seconds, set.unit, difference_scale(c));
        return fmt::format("B is {} than A by {} {}", word,
                           with_interval(format.signed_value(c.difference),
                                         interval_text(c.difference_ci, format, true)),
                           group_evidence(set, group));
    }
    const std::string size =
        c.ratio >= 1 ? factor_text(c.ratio, c.ratio_ci)
                     : factor_text(1 / c.ratio, {1 / c.ratio_ci.high, 1 / c.ratio_ci.low});
    return fmt::format("B is {} {} than A {}", size, word, group_evidence(set, group));
}

// The groups without a shown difference, together: the widest range their intervals of B / A
// leave open, so "no difference" says how large a difference it still allows.
std::string undecided_groups(const ComparisonSet& set, int count, const stats::Interval& span) {
    std::string text =
        fmt::format("no difference shown in {} group{}", count, count == 1 ? "" : "s");
    if (std::isfinite(span.low) && std::isfinite(span.high)) {
        text += fmt::format(": every interval of B / A lies within [{:.2f}, {:.2f}], excluding "
                            "changes beyond {:+.1f} % and {:+.1f} %",
                            span.low, span.high, (span.low - 1) * 100, (span.high - 1) * 100);
    }
    return text + fmt::format(" ({}, α {})", set.seconds ? std::string("boot time") : set.metric,
                              ValueFormat::plain(set.alpha));
}

} // namespace

std::vector<std::string> comparison_answers(const ComparisonSet& set) {
    std::vector<std::string> answers;
    int undecided = 0;
    int insufficient = 0;
    stats::Interval span{std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity()};
    for (const auto& group : set.groups) {
        const Comparison& c = group.comparison;
        if (!group.a || !group.b) {
            continue; // only in one run: the table says so
        }
        if (c.verdict == Comparison::Verdict::Slower || c.verdict == Comparison::Verdict::Faster) {
            answers.push_back(decided_group(set, group));
        } else if (c.verdict == Comparison::Verdict::NoChange) {
            ++undecided;
            span.low = std::min(span.low, c.ratio_ci.low);    // NaN-free: NaN compares false
            span.high = std::max(span.high, c.ratio_ci.high); // and std::min keeps the first
        } else {
            ++insufficient;
        }
    }
    if (undecided > 0) {
        answers.push_back(undecided_groups(set, undecided, span));
    }
    if (insufficient > 0) {
        answers.push_back(fmt::format("{} group{} without an answer (too few boots for an "
                                      "interval at α {}: the table says why)",
                                      insufficient, insufficient == 1 ? "" : "s",
                                      ValueFormat::plain(set.alpha)));
    }
    return answers;
}

std::vector<std::string> verdict_answers(const VerdictTable& table) {
    std::vector<std::string> answers;
    for (const auto& row : table.rows) {
        answers.push_back(table.analysis.is_trend() ? trend_answer(table.analysis, row)
                                                    : comparison_answer(table.analysis, row));
    }
    return answers;
}

std::string answer_block(const std::vector<std::string>& answers, bool markdown) {
    std::string block;
    for (const auto& answer : answers) {
        block += (markdown ? "- " : "answer: ") + answer + "\n";
    }
    return block;
}

} // namespace bb
