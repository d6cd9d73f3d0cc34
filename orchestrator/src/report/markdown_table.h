#pragma once
#include "report/text_table.h"

#include <string>

namespace bb {

// A GitHub-flavoured Markdown table; '|' inside cells is escaped.
std::string render_markdown(const Table& table);

} // namespace bb
