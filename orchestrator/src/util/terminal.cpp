#include "util/terminal.h"

#include "util/markup_escape.h"
#include "util/monotonic_clock.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/ioctl.h>
#include <unistd.h>

namespace bb {

namespace {
size_t terminal_width() {
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
        return size.ws_col;
    }
    return 80;
}

std::string elide(const std::string& text, size_t width) {
    if (text.size() < width || width < 8) {
        return text;
    }
    return text.substr(0, width - 4) + "...";
}
} // namespace

// Off a terminal, one progress line a minute by default: a 30-minute run logs about 30.
StatusLine::StatusLine(double plain_every_s)
    : m_plain_every_s(plain_every_s), m_last_plain(monotonic_seconds()) {
    const char* term = std::getenv("TERM");
    m_smart = isatty(STDERR_FILENO) && term != nullptr && std::strcmp(term, "dumb") != 0;
}

StatusLine::~StatusLine() {
    clear();
}

void StatusLine::update(const std::string& text, bool print_plain) {
    if (m_quiet) {
        return;
    }
    if (m_smart) {
        std::fprintf(stderr, "\r%s\x1b[K", elide(terminal_text(text), terminal_width()).c_str());
        std::fflush(stderr);
        m_dirty = true;
    } else if (print_plain) {
        std::fprintf(stderr, "%s\n", terminal_text(text).c_str());
    } else if (const double now = monotonic_seconds(); now - m_last_plain >= m_plain_every_s) {
        std::fprintf(stderr, "progress: %s\n", terminal_text(text).c_str());
        std::fflush(stderr);
        m_last_plain = now;
    }
}

void StatusLine::print(const std::string& text) {
    clear();
    std::fprintf(stderr, "%s\n",
                 terminal_output(text).c_str()); // stored strings: shown, not obeyed
}

void StatusLine::clear() {
    if (m_smart && m_dirty) {
        std::fprintf(stderr, "\r\x1b[K");
        std::fflush(stderr);
        m_dirty = false;
    }
}

bool use_color() {
    if (std::getenv("NO_COLOR") != nullptr) {
        return false;
    }
    if (std::getenv("FORCE_COLOR") != nullptr) {
        return true;
    }
    const char* term = std::getenv("TERM");
    return isatty(STDOUT_FILENO) && term != nullptr && std::strcmp(term, "dumb") != 0;
}

size_t table_width() {
    constexpr size_t fallback = 120;
    if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
        char* end = nullptr;
        const unsigned long width = std::strtoul(columns, &end, 10);
        if (end != columns && *end == '\0' && width >= 40 && width <= 1000) {
            return width;
        }
    }
    winsize size{};
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
        return size.ws_col;
    }
    return fallback;
}

} // namespace bb
