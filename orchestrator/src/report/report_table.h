#pragma once
// `bootbench report` as a table: one row per group with its median, interval and spread, and
// the counts of what was excluded, laid out as aligned text or Markdown.
#include "report/sample_query.h"
#include "report/text_table.h"

#include <string>
#include <vector>

namespace bb {

// One column per axis, then n, median [order-statistic interval], its coverage, mean ± σ, min …
// max, failed/loaded boots used, excluded counts. All numbers of a row share one unit, picked from
// its median.
Table report_table(const SampleSet& set, const std::vector<GroupStatistics>& statistics);

// The report as a whole: a heading line, the table, a note on excluded samples.
std::string render_report_text(const SampleSet& set,
                               const std::vector<GroupStatistics>& statistics);
std::string render_report_markdown(const SampleSet& set,
                                   const std::vector<GroupStatistics>& statistics);

} // namespace bb
