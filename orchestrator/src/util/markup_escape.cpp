#include "util/markup_escape.h"

namespace bb {

std::string html_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size() + text.size() / 8);
    for (char c : text) {
        switch (c) {
        case '&':
            escaped += "&amp;";
            break;
        case '<':
            escaped += "&lt;";
            break;
        case '>':
            escaped += "&gt;";
            break;
        case '"':
            escaped += "&quot;";
            break;
        case '\'':
            escaped += "&#39;";
            break;
        case '\n':
            escaped += "&#10;";
            break;
        case '\r':
            escaped += "&#13;";
            break;
        case '\t':
            escaped += c;
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') {
                escaped += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            } else {
                escaped += c;
            }
        }
    }
    return escaped;
}

std::string xml_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            escaped += "&amp;";
            break;
        case '<':
            escaped += "&lt;";
            break;
        case '>':
            escaped += "&gt;";
            break;
        case '"':
            escaped += "&quot;";
            break;
        case '\'':
            escaped += "&apos;";
            break;
        default:
            // XML 1.0 allows no control characters but tab, LF and CR, not even escaped.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                escaped += '?';
            } else {
                escaped += c;
            }
        }
    }
    return escaped;
}

} // namespace bb
