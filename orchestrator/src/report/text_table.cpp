#include "report/text_table.h"

#include <algorithm>

namespace bb {

namespace {

// One line per row: a name holding a line break would otherwise tear the table apart.
std::string one_line(std::string_view text) {
    std::string line(text);
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return line;
}

std::string pad(std::string_view text, size_t width, bool right) {
    const size_t fill = width > display_width(text) ? width - display_width(text) : 0;
    return right ? std::string(fill, ' ') + std::string(text)
                 : std::string(text) + std::string(fill, ' ');
}

} // namespace

size_t display_width(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string render_aligned(const Table& table) {
    std::vector<size_t> widths(table.headers.size(), 0);
    const auto measure = [&widths](const std::vector<std::string>& row) {
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(row[i]));
        }
    };
    measure(table.headers);
    for (const auto& row : table.rows) {
        measure(row);
    }
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

} // namespace bb
