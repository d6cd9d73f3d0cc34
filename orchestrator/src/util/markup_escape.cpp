#include "util/markup_escape.h"

namespace bb {

namespace {
// The entity of one of the five markup specials, or nullptr for any other character. HTML
// writes the apostrophe as &#39; (&apos; is not HTML 4), XML as &apos;.
const char* special_entity(char c, const char* apostrophe) {
    switch (c) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    case '\'':
        return apostrophe;
    default:
        return nullptr;
    }
}

bool is_control(char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == '\x7f';
}
} // namespace

std::string html_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size() + text.size() / 8);
    for (char c : text) {
        if (const char* entity = special_entity(c, "&#39;")) {
            escaped += entity;
        } else if (c == '\n') {
            escaped += "&#10;";
        } else if (c == '\r') {
            escaped += "&#13;";
        } else if (c != '\t' && is_control(c)) {
            escaped += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        } else {
            escaped += c;
        }
    }
    return escaped;
}

std::string xml_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char c : text) {
        if (const char* entity = special_entity(c, "&apos;")) {
            escaped += entity;
        } else if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            // XML 1.0 allows no control characters but tab, LF and CR, not even escaped.
            escaped += '?';
        } else {
            escaped += c;
        }
    }
    return escaped;
}

} // namespace bb
