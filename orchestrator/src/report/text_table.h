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

    // How the text layout makes a table fit the screen (render_aligned; Markdown, HTML, CSV and
    // JSON keep every column):
    // Leading columns naming a row: an axis value under its axis, or a cell key "a=1;b=2". A
    // value or key part that every row shares is said once above the table instead.
    size_t label_columns = 0;
    // Columns whose value, when it is the same in every row, is said once above the table.
    std::vector<bool> said_once_if_uniform;
    // Columns that may be left out when the table is still wider than the screen: the highest
    // number goes first; 0 is never left out. The table's last line names what was left out.
    std::vector<int> leave_out_order;
};

// Removes one column: its header, its per-column settings and its cell in every row.
void drop_column(Table& table, size_t column);

// Labels ("a=1;b=2", as cell keys print) without the parts every one of them has; returns those
// parts in the first label's order. Fewer than two labels: nothing is shared.
std::vector<std::string> remove_shared_parts(std::vector<std::string>& labels);

// Characters on screen: UTF-8 sequences, not bytes ("±", "µ", "…" and "−" are one each).
size_t display_width(std::string_view text);

// Columns padded to their widest cell (in characters, not bytes: "±" and "µ" are one column),
// fitted to `width` as Table describes: a "same in every row:" line above the table for what
// every row shares, and a last line naming the columns left out.
std::string render_aligned(const Table& table, size_t width);
// The same, fitted to the table width of this process's output (util/terminal.h).
std::string render_aligned(const Table& table);

// A whole text report fitted to `width`: every prose line longer than it is broken at its last
// space that fits, the rest indented by two. Table rows (columns two spaces apart) are fitted
// by render_aligned and left alone.
std::string wrap_long_lines(const std::string& text, size_t width);

} // namespace bb
