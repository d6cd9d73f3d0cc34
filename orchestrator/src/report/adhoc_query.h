#pragma once
// `bootbench query`'s output: the rows store/read_only_query.h read, as aligned text, Markdown,
// CSV or JSON.
#include "store/read_only_query.h"

#include <optional>
#include <string>
#include <string_view>

namespace bb {

enum class QueryFormat { Text, Csv, Json, Markdown };
std::optional<QueryFormat> parse_query_format(std::string_view name);

std::string render_query_result(const QueryResult& result, QueryFormat format);

} // namespace bb
