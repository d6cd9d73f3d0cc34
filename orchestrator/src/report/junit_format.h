#pragma once
// `compare --junit FILE`: the comparison as JUnit XML, so CI shows a slower group as a failed test.
#include "report/sample_query.h"

#include <string>

namespace bb {

// One testcase per group: <failure> when slower, <skipped> when there is not enough data.
std::string render_junit(const ComparisonSet& set, const std::string& suite_name);

} // namespace bb
