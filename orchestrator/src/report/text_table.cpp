#include "report/text_table.h"

#include "util/markup_escape.h"
#include "util/terminal.h"

#include <algorithm>
#include <utility>

namespace bb {

void drop_column(Table& table, size_t column) {
    const auto erase = [column](auto& cells) {
        cells.erase(cells.begin() + static_cast<std::ptrdiff_t>(column));
    };
    erase(table.headers);
    erase(table.right_aligned);
    erase(table.said_once_if_uniform);
    erase(table.leave_out_order);
    for (auto& row : table.rows) {
        erase(row);
    }
}

namespace {

// One line per row: a name holding a line break would otherwise tear the table apart; and what
// else could act on the terminal (ESC, bidi overrides) is shown, not obeyed.
std::string one_line(std::string_view text) {
    std::string line(text);
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return terminal_text(line);
}

std::string pad(std::string_view text, size_t width, bool right) {
    const size_t fill = width > display_width(text) ? width - display_width(text) : 0;
    return right ? std::string(fill, ' ') + std::string(text)
                 : std::string(text) + std::string(fill, ' ');
}

std::vector<std::string> key_parts(const std::string& cell) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= cell.size()) {
        const size_t end = std::min(cell.find(';', start), cell.size());
        parts.push_back(cell.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
    std::string text;
    for (const auto& part : parts) {
        text += (text.empty() ? "" : std::string(separator)) + part;
    }
    return text;
}

void erase_column(Table& table, size_t column) {
    const auto erase_at = [column](auto& values) {
        if (column < values.size()) {
            values.erase(values.begin() + static_cast<std::ptrdiff_t>(column));
        }
    };
    erase_at(table.headers);
    erase_at(table.right_aligned);
    erase_at(table.said_once_if_uniform);
    erase_at(table.leave_out_order);
    for (auto& row : table.rows) {
        erase_at(row);
    }
    if (column < table.label_columns) {
        --table.label_columns;
    }
}

const std::string& cell_of(const Table& table, size_t row, size_t column) {
    static const std::string empty;
    return column < table.rows[row].size() ? table.rows[row][column] : empty;
}

bool uniform(const Table& table, size_t column) {
    for (size_t row = 1; row < table.rows.size(); ++row) {
        if (cell_of(table, row, column) != cell_of(table, 0, column)) {
            return false;
        }
    }
    return true;
}

// A cell key's parts that every row has, in the first row's order.
std::vector<std::string> shared_parts(const Table& table, size_t column) {
    std::vector<std::string> shared;
    for (const auto& part : key_parts(cell_of(table, 0, column))) {
        const bool everywhere = std::all_of(
            table.rows.begin(), table.rows.end(), [&](const std::vector<std::string>& row) {
                const auto parts = key_parts(column < row.size() ? row[column] : "");
                return std::find(parts.begin(), parts.end(), part) != parts.end();
            });
        if (everywhere && part.find('=') != std::string::npos) {
            shared.push_back(part);
        }
    }
    return shared;
}

void remove_parts(Table& table, size_t column, const std::vector<std::string>& shared) {
    for (auto& row : table.rows) {
        std::vector<std::string> kept;
        for (auto& part : key_parts(row[column])) {
            if (std::find(shared.begin(), shared.end(), part) == shared.end()) {
                kept.push_back(std::move(part));
            }
        }
        row[column] = joined(kept, ";");
    }
}

// Says the value of `column`, the same in every row, once and removes the column: a cell key
// "a=1;b=2" as its parts, another label as "header=value", a said-once column as
// "header: value", "-" as nothing (no boot excluded, say).
void say_once(Table& table, size_t column, std::vector<std::string>& said) {
    const bool label = column < table.label_columns;
    const std::string value = cell_of(table, 0, column);
    if (label && value.find('=') != std::string::npos) {
        const auto parts = key_parts(value);
        said.insert(said.end(), parts.begin(), parts.end());
    } else if (value != "-") {
        said.push_back(table.headers[column] + (label ? "=" : ": ") + value);
    }
    erase_column(table, column);
}

// Moves what every row shares out of the label columns and the said-once columns; returns it
// as "name=value" texts.
std::vector<std::string> fold_shared(Table& table) {
    std::vector<std::string> said;
    if (table.rows.size() < 2) {
        return said;
    }
    for (size_t column = 0; column < table.headers.size();) {
        const bool label = column < table.label_columns;
        const bool once =
            column < table.said_once_if_uniform.size() && table.said_once_if_uniform[column];
        const std::string value = cell_of(table, 0, column);
        if ((label || once) && uniform(table, column) && !value.empty()) {
            say_once(table, column, said);
            continue;
        }
        if (label) {
            const auto shared = shared_parts(table, column);
            said.insert(said.end(), shared.begin(), shared.end());
            remove_parts(table, column, shared);
        }
        ++column;
    }
    return said;
}

std::vector<size_t> column_widths(const Table& table) {
    std::vector<size_t> widths(table.headers.size(), 0);
    const auto measure = [&widths](const std::vector<std::string>& row) {
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(one_line(row[i])));
        }
    };
    measure(table.headers);
    for (const auto& row : table.rows) {
        measure(row);
    }
    return widths;
}

size_t line_width(const Table& table) {
    const auto widths = column_widths(table);
    size_t total = widths.empty() ? 0 : 2 * (widths.size() - 1);
    for (const size_t width : widths) {
        total += width;
    }
    return total;
}

// Leaves out the columns allowed to go, highest order first, until the table fits; returns
// their headers.
std::vector<std::string> leave_out_to_fit(Table& table, size_t width) {
    std::vector<std::string> left_out;
    while (line_width(table) > width) {
        const auto& order = table.leave_out_order;
        const auto next = std::max_element(order.begin(), order.end());
        if (next == order.end() || *next <= 0) {
            break;
        }
        const auto column = static_cast<size_t>(next - order.begin());
        left_out.push_back(table.headers[column]);
        erase_column(table, column);
    }
    return left_out;
}

std::string aligned_lines(const Table& table) {
    const auto widths = column_widths(table);
    const auto line = [&](const std::vector<std::string>& row) {
        std::string text;
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            const bool right = i < table.right_aligned.size() && table.right_aligned[i];
            text += (i == 0 ? "" : "  ") + pad(one_line(row[i]), widths[i], right);
        }
        while (!text.empty() && text.back() == ' ') {
            text.pop_back();
        }
        return text + "\n";
    };
    std::string out = line(table.headers);
    for (const auto& row : table.rows) {
        out += line(row);
    }
    return out;
}

// "same in every row: a=1; b=2", wrapped between items to the width.
std::string said_line(const std::vector<std::string>& said, size_t width) {
    if (said.empty()) {
        return {};
    }
    std::string out = "same in every row:";
    size_t line = display_width(out);
    for (size_t i = 0; i < said.size(); ++i) {
        const std::string item = said[i] + (i + 1 < said.size() ? ";" : "");
        if (line + 1 + display_width(item) > width && line > 2) {
            out += "\n ";
            line = 1;
        }
        out += " " + item;
        line += 1 + display_width(item);
    }
    return out + "\n";
}

} // namespace

size_t display_width(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

namespace {
// One row shares nothing with another, yet it may be wider than the screen: then its said-once
// columns ("method: signed-rank, exact") are said above the table, and if it still does not
// fit, its key keeps its first part ("variant=tip") and the rest is said once too, as for many
// rows.
void fold_lone_row(Table& table, std::vector<std::string>& said, size_t width) {
    if (table.rows.size() != 1 || line_width(table) <= width) {
        return;
    }
    for (size_t column = table.label_columns; column < table.headers.size();) {
        const bool once =
            column < table.said_once_if_uniform.size() && table.said_once_if_uniform[column];
        if (once && !cell_of(table, 0, column).empty()) {
            say_once(table, column, said);
        } else {
            ++column;
        }
    }
    auto parts = key_parts(cell_of(table, 0, 0));
    if (table.label_columns == 0 || line_width(table) <= width || parts.size() < 2 ||
        parts.front().find('=') == std::string::npos) {
        return;
    }
    said.insert(said.end(), parts.begin() + 1, parts.end());
    table.rows[0][0] = parts.front();
}

} // namespace

std::string render_aligned(const Table& table, size_t width) {
    Table fitted = table;
    auto said = fold_shared(fitted);
    fold_lone_row(fitted, said, width);
    const auto left_out = leave_out_to_fit(fitted, width);
    std::string out = said_line(said, width);
    out += aligned_lines(fitted);
    if (!left_out.empty()) {
        out += "left out to fit " + std::to_string(width) + " columns: " + joined(left_out, ", ") +
               " (COLUMNS=N widens; --format md shows every column)\n";
    }
    return out;
}

std::string render_aligned(const Table& table) {
    return render_aligned(table, table_width());
}

std::vector<std::string> remove_shared_parts(std::vector<std::string>& labels) {
    if (labels.size() < 2) {
        return {};
    }
    Table table;
    table.headers = {"label"};
    for (const auto& label : labels) {
        table.rows.push_back({label});
    }
    const auto shared = shared_parts(table, 0);
    remove_parts(table, 0, shared);
    for (size_t i = 0; i < labels.size(); ++i) {
        labels[i] = table.rows[i][0];
    }
    return shared;
}

namespace {
// The byte offset where `line`'s first `width` characters end.
size_t offset_of_column(std::string_view line, size_t width) {
    size_t characters = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80 && characters++ == width) {
            return i;
        }
    }
    return line.size();
}

// Table rows separate their columns by two spaces or more; prose never does.
bool is_table_row(std::string_view line) {
    const size_t text = line.find_first_not_of(' ');
    return text != std::string_view::npos && line.find("  ", text) != std::string_view::npos;
}

std::string wrap_line(std::string line, size_t width) {
    if (is_table_row(line)) {
        return line; // fitted by render_aligned, or as narrow as its labels allow
    }
    std::string out;
    while (display_width(line) > width) {
        const size_t limit = offset_of_column(line, width);
        const size_t space = line.rfind(' ', limit);
        const size_t first_word = line.find_first_not_of(' ');
        if (space == std::string::npos || space <= first_word) {
            // One word wider than the screen: a cell key ("variant=a;hz=250;…") breaks after
            // one of its ';', anything else is left whole.
            const size_t semicolon = limit == 0 ? std::string::npos : line.rfind(';', limit - 1);
            if (semicolon == std::string::npos || semicolon <= first_word) {
                break;
            }
            out += line.substr(0, semicolon + 1) + "\n";
            line = "  " + line.substr(semicolon + 1);
            continue;
        }
        out += line.substr(0, space) + "\n";
        line = "  " + line.substr(space + 1);
    }
    return out + line;
}
} // namespace

std::string wrap_long_lines(const std::string& text, size_t width) {
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find('\n', start), text.size());
        out += wrap_line(text.substr(start, end - start), width);
        out += end < text.size() ? "\n" : "";
        start = end + 1;
    }
    return out;
}

} // namespace bb
