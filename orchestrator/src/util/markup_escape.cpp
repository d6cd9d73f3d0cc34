#include "util/markup_escape.h"

#include "util/utf8.h"

#include <cstdint>
#include <fmt/format.h>
#include <utility>

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
    for (size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        const auto length = utf8_sequence_length(text, at);
        if (!length) { // a byte that is not UTF-8 (a page must be valid UTF-8: issue 48 item 15)
            escaped += "\xEF\xBF\xBD";
        } else if (*length > 1) {
            escaped += text.substr(at, *length);
            at += *length - 1;
        } else if (const char* entity = special_entity(c, "&#39;")) {
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

namespace {
// The code point of the UTF-8 sequence at text[i] and its length; U+FFFD for a broken one.
std::pair<char32_t, size_t> decode_utf8(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    // Overlong forms, surrogates and code points past U+10FFFF are broken sequences too.
    if (length == 1 || i + length > text.size() || first_invalid_utf8(text.substr(i, length))) {
        return {U'\uFFFD', 1};
    }
    char32_t code = lead & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            return {U'\uFFFD', 1};
        }
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    return {code, length};
}
} // namespace

std::string roff_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size() + text.size() / 8);
    bool line_start = true;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (line_start && (c == '.' || c == '\'')) {
            escaped += "\\&";
        }
        line_start = c == '\n';
        if (static_cast<unsigned char>(c) >= 0x80) {
            // groff reads its input as Latin-1 unless told otherwise: \[uXXXX] in any setup.
            const auto [code, length] = decode_utf8(text, i);
            escaped += fmt::format("\\[u{:04X}]", static_cast<uint32_t>(code));
            i += length - 1;
        } else if (c == '\\') {
            escaped += "\\e";
        } else if (c == '-') {
            escaped += "\\-";
        } else if (c != '\t' && c != '\n' && is_control(c)) {
            escaped += '?';
        } else {
            escaped += c;
        }
    }
    return escaped;
}

namespace {
// What a terminal must not be handed raw from stored text: C0 controls and DEL (ESC starts a
// sequence that can retitle the window or rewrite the screen, CR overwrites the line), the C1
// controls U+0080-U+009F (U+009B is CSI on some terminals, U+0085 a line break), and the bidi
// overrides and isolates that reorder what is shown (U+202E made "exe.txt" read "txt.exe").
bool unsafe_on_terminal(char32_t code) {
    return code < 0x20 || code == 0x7f || (code >= 0x80 && code <= 0x9f) || code == 0x061c ||
           code == 0x200e || code == 0x200f || (code >= 0x202a && code <= 0x202e) ||
           (code >= 0x2066 && code <= 0x2069);
}

char32_t decode(std::string_view text, size_t at, size_t length) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[at + i]); };
    if (length == 1) {
        return byte(0);
    }
    char32_t code = byte(0) & (0xff >> (length + 1));
    for (size_t i = 1; i < length; ++i) {
        code = (code << 6) | (byte(i) & 0x3f);
    }
    return code;
}

std::string terminal_escaped(std::string_view text, bool keep_line_breaks) {
    constexpr std::string_view k_replacement = "\xEF\xBF\xBD"; // U+FFFD
    std::string shown;
    shown.reserve(text.size());
    for (size_t at = 0; at < text.size();) {
        const auto length = utf8_sequence_length(text, at);
        if (!length) { // a byte that is not UTF-8: one replacement each
            shown += k_replacement;
            ++at;
            continue;
        }
        const char32_t code = decode(text, at, *length);
        const bool kept = keep_line_breaks && (code == '\n' || code == '\t');
        shown += unsafe_on_terminal(code) && !kept ? k_replacement : text.substr(at, *length);
        at += *length;
    }
    return shown;
}
} // namespace

std::string terminal_text(std::string_view text) {
    return terminal_escaped(text, false);
}

std::string terminal_output(std::string_view text) {
    return terminal_escaped(text, true);
}

} // namespace bb
