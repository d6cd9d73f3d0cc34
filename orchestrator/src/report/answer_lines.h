#pragma once
// The verdict as sentences a reader acts on without reading the table, one per declared
// comparison, as hyperfine ends with "A ran 1.79× faster than B":
//   before is 2.09× [1.48, 2.77] slower than stock (boot time, 4 vs 4 boots, exact p 0.029,
//   α 0.05)
//   no difference shown: after vs stock (hz=250): 1.02× [0.93, 1.11]; the interval excludes
//   changes beyond -7.0 % and +11.0 % (boot time, 8 vs 8 boots, exact p 0.64, α 0.05)
// `run` and `report --view verdict` end with them, `compare` with one per decided group and one
// for the rest (issue 49, item 1).
#include "report/sample_query.h"
#include "report/verdict.h"

#include <string>
#include <vector>

namespace bb {

// One sentence per row of the primary table (a trend: one per condition); the words are the
// row's decision, the numbers the row's, so the sentence never says more than the table.
std::vector<std::string> verdict_answers(const VerdictTable& table);

// `compare`'s: one sentence per group decided slower or faster, then one for the groups where
// no difference was shown (the range their intervals exclude) and one for the insufficient.
std::vector<std::string> comparison_answers(const ComparisonSet& set);

// Sentences as a block: "answer:" lines for text, a list for Markdown.
std::string answer_block(const std::vector<std::string>& answers, bool markdown);

} // namespace bb
