#include "console/ansi_filter.h"

namespace bb {

std::string AnsiFilter::filter(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        switch (m_state) {
        case State::Text:
            if (byte == 0x1b) {
                m_state = State::Escape;
            } else if (byte == '\n' || byte == '\t' || byte >= 0x20) {
                if (byte != 0x7f) {
                    out += c;
                }
            }
            break;
        case State::Escape:
            if (byte == '[') {
                m_state = State::Csi;
            } else if (byte == ']') {
                m_state = State::Osc;
            } else if (byte >= 0x20 && byte <= 0x2f) {
                m_state = State::Intermediate; // ESC ( B and friends: more bytes follow
            } else {
                m_state = State::Text; // two-byte sequence such as ESC c or ESC =
            }
            break;
        case State::Intermediate:
            if (byte < 0x20 || byte > 0x2f) {
                m_state = State::Text;
            }
            break;
        case State::Csi:
            if (byte == '\n') {
                out += c; // a broken sequence must not swallow the line that follows
                m_state = State::Text;
            } else if (byte >= 0x40 && byte <= 0x7e) {
                m_state = State::Text;
            }
            break;
        case State::Osc:
            if (byte == 0x07) {
                m_state = State::Text;
            } else if (byte == 0x1b) {
                m_state = State::OscEscape;
            }
            break;
        case State::OscEscape:
            m_state = byte == '\\' ? State::Text : State::Osc;
            break;
        }
    }
    return out;
}

} // namespace bb
