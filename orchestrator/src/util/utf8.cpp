#include "util/utf8.h"

namespace bb {

std::optional<size_t> utf8_sequence_length(std::string_view text, size_t at) {
    const auto byte = static_cast<unsigned char>(text[at]);
    size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xbf;
    if (byte < 0x80) {
        return 1;
    } else if (byte >= 0xc2 && byte <= 0xdf) {
        length = 2;
    } else if (byte >= 0xe0 && byte <= 0xef) {
        length = 3;
        low = byte == 0xe0 ? 0xa0 : 0x80;
        high = byte == 0xed ? 0x9f : 0xbf;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
        length = 4;
        low = byte == 0xf0 ? 0x90 : 0x80;
        high = byte == 0xf4 ? 0x8f : 0xbf;
    } else {
        return std::nullopt;
    }
    if (at + length > text.size()) {
        return std::nullopt;
    }
    for (size_t i = 1; i < length; ++i) {
        const auto next = static_cast<unsigned char>(text[at + i]);
        if (next < (i == 1 ? low : 0x80) || next > (i == 1 ? high : 0xbf)) {
            return std::nullopt;
        }
    }
    return length;
}

std::optional<size_t> first_invalid_utf8(std::string_view text) {
    for (size_t at = 0; at < text.size();) {
        const auto length = utf8_sequence_length(text, at);
        if (!length) {
            return at;
        }
        at += *length;
    }
    return std::nullopt;
}

} // namespace bb
