#pragma once
// A table before layout, and its layout as aligned plain text. The Markdown and HTML renderers
// lay out the same tables (markdown_table.h, html_report.h).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

struct Table {
    std::vector<std::string> headers;
    std::vector<bool> right_aligned; // per column
    std::vector<std::vector<std::string>> rows;
    size_t emphasized_rows = 0; // leading rows that stand out in HTML (a geometric-mean row)
};

// Characters on screen: UTF-8 sequences, not bytes ("±", "µ", "…" and "−" are one each).
size_t display_width(std::string_view text);

// Columns padded to their widest cell (in characters, not bytes: "±" and "µ" are one column).
std::string render_aligned(const Table& table);

} // namespace bb
