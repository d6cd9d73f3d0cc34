#include "util/shell_quote.h"

#include <fmt/format.h>

namespace bb {

std::string shell_quote(std::string_view text) {
    const bool plain = !text.empty() &&
                       text.find_first_of(" \t\n'\"\\$`;&|<>()*?[]{}~#!") == std::string_view::npos;
    if (plain) {
        return std::string(text);
    }
    std::string out = "'";
    for (const char c : text) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

std::string shell_command_line(const std::vector<std::string>& words) {
    std::string line;
    for (const auto& word : words) {
        line += (line.empty() ? "" : " ") + shell_quote(word);
    }
    return line;
}

std::string shell_comment_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\') {
            out += "\\\\";
        } else if (byte < 0x20 || byte == 0x7f) {
            out += fmt::format("\\x{:02x}", byte);
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace bb
