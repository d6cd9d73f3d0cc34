#pragma once
// `bootbench compare --format csv`: one row per group with machine values only — numbers in
// separate numeric fields (the estimate, its interval's ends and coverage, p and Holm's p), no
// unit in a cell, so a spreadsheet or R reads numeric columns (issue 49, item 2). Times are in
// seconds; a value that does not exist is an empty field.
#include "report/sample_query.h"

#include <string>

namespace bb {

std::string render_comparison_csv(const ComparisonSet& set);

} // namespace bb
