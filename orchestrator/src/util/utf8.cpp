#include "util/utf8.h"

namespace bb {

std::optional<size_t> first_invalid_utf8(std::string_view text) {
    size_t at = 0;
    while (at < text.size()) {
        const auto byte = static_cast<unsigned char>(text[at]);
        size_t length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xbf;
        if (byte < 0x80) {
            ++at;
            continue;
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
            return at;
        }
        if (at + length > text.size()) {
            return at;
        }
        for (size_t i = 1; i < length; ++i) {
            const auto next = static_cast<unsigned char>(text[at + i]);
            if (next < (i == 1 ? low : 0x80) || next > (i == 1 ? high : 0xbf)) {
                return at;
            }
        }
        at += length;
    }
    return std::nullopt;
}

} // namespace bb
