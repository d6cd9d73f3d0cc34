#include "report/markdown_table.h"

namespace bb {

std::string render_markdown(const Table& table) {
    const auto cell = [](const std::string& text) {
        std::string escaped;
        for (char c : text) {
            if (c == '|') {
                escaped += "\\|";
            } else if (c == '\n' || c == '\r') {
                escaped += ' ';
            } else {
                escaped += c;
            }
        }
        return escaped;
    };
    const auto line = [&cell](const std::vector<std::string>& row) {
        std::string text = "|";
        for (const auto& item : row) {
            text += " " + cell(item) + " |";
        }
        return text + "\n";
    };
    std::string out = line(table.headers) + "|";
    for (size_t i = 0; i < table.headers.size(); ++i) {
        const bool right = i < table.right_aligned.size() && table.right_aligned[i];
        out += right ? " ---: |" : " --- |";
    }
    out += "\n";
    for (const auto& row : table.rows) {
        out += line(row);
    }
    return out;
}

} // namespace bb
