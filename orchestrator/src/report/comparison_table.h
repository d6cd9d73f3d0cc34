#pragma once
// `bootbench compare` as a table: one row per group, A against B, with the verdict and the
// one-line tally, laid out as aligned text or Markdown.
#include "report/sample_query.h"
#include "report/text_table.h"

#include <string>

namespace bb {

// "slower"/"faster" for times; for other metrics "higher"/"lower" (lower is still better).
std::string verdict_word(Comparison::Verdict verdict, bool seconds);

Table comparison_table(const ComparisonSet& set);
// `label_a`/`label_b` name the two sides ("run 3 (smoke-matrix, …)").
std::string render_comparison_text(const ComparisonSet& set, const std::string& label_a,
                                   const std::string& label_b);
std::string render_comparison_markdown(const ComparisonSet& set, const std::string& label_a,
                                       const std::string& label_b);
// The one-line tally: "3 cells: 1 slower, 2 no change, …; geometric mean of B/A 1.012 […]".
std::string comparison_summary_line(const ComparisonSet& set);

// One line per group in which B's boots fail more than A's ("" when none): the counts and the
// exact test's p. Such a group fails the comparison whatever its times say.
std::string failing_groups_text(const ComparisonSet& set);

// The unit for a difference and its interval: from the largest of the three, so an interval
// around a zero difference still prints in milliseconds when it is milliseconds wide.
double difference_scale(const Comparison& c);
// "only in A" / "only in B" for a group one side lacks; empty when both have it.
std::string missing_side_text(const GroupComparison& group);

} // namespace bb
