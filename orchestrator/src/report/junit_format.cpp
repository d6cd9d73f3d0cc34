#include "report/junit_format.h"

#include "report/comparison_table.h"
#include "report/render_support.h"
#include "util/markup_escape.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

// A group's comparison in one sentence: what CI shows as the testcase's message.
std::string comparison_detail(const ComparisonSet& set, const GroupComparison& group) {
    const Comparison& c = group.comparison;
    if (!group.a || !group.b) {
        return fmt::format("{}: cannot compare", missing_side_text(group));
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

std::string render_junit(const ComparisonSet& set, const std::string& suite_name) {
    const int tests = static_cast<int>(set.groups.size());
    int failures = 0;
    int skipped = 0;
    for (const auto& group : set.groups) {
        const auto verdict = group.comparison.verdict;
        failures += group.fails_more || verdict == Comparison::Verdict::Slower ? 1 : 0;
        skipped += !group.fails_more && verdict == Comparison::Verdict::Insufficient ? 1 : 0;
    }
    const std::string counts = fmt::format(
        "tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\"", tests, failures, skipped);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites name=\"bootbench compare\" {}>\n", counts);
    out += fmt::format("  <testsuite name=\"{}\" {}>\n", xml_escape(suite_name), counts);
    const std::string classname = xml_escape("bootbench.compare." + set.metric);
    for (const auto& group : set.groups) {
        const std::string name = xml_escape(group_label(set.axes, group.key));
        const std::string detail = xml_escape(comparison_detail(set, group));
        out += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", classname, name);
        if (group.fails_more) {
            // Failed boots are a result: a kernel that panics every time fails, not "skipped".
            const std::string failed = xml_escape(fmt::format(
                "B's boots failed: {} of {} (A: {} of {}), Fisher exact one-sided p {:.2g}; {}",
                group.failed_b, group.boots_b, group.failed_a, group.boots_a, group.failure_p,
                comparison_detail(set, group)));
            out += fmt::format("      <failure type=\"failed boots\" message=\"{}\">{}</failure>\n",
                               failed, failed);
            out += "    </testcase>\n";
            continue;
        }
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

} // namespace bb
