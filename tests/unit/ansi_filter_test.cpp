#include "console/ansi_filter.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

using bb::AnsiFilter;

namespace {
std::string filter_whole(std::string_view bytes) {
    AnsiFilter filter;
    return filter.filter(bytes);
}

// The same stream fed one byte per read: the worst split a serial port can produce.
std::string filter_bytewise(std::string_view bytes) {
    AnsiFilter filter;
    std::string out;
    for (char c : bytes) {
        out += filter.filter(std::string_view(&c, 1));
    }
    return out;
}
} // namespace

TEST_CASE("plain text, newlines, tabs and UTF-8 pass through", "[ansi]") {
    const std::string text = "[    0.000000] Linux version 6.1\n\tindented 412.3 \xc2\xb5s\n";
    CHECK(filter_whole(text) == text);
    CHECK(filter_whole("") == "");
}

TEST_CASE("carriage returns and control bytes are dropped", "[ansi]") {
    CHECK(filter_whole("line\r\n") == "line\n");
    CHECK(filter_whole("a\rb") == "ab");
    // NUL, BEL, BS and DEL (octal escapes so no digit after them is swallowed).
    CHECK(filter_whole(std::string_view("a\0b\ac\bd\177e", 9)) == "abcde");
}

TEST_CASE("CSI sequences are removed", "[ansi]") {
    CHECK(filter_whole("\x1b[2J\x1b[01;01H") == "");
    CHECK(filter_whole("a\x1b[1;31mred\x1b[0mb") == "aredb");
    CHECK(filter_whole("\x1b[?25lhidden cursor\x1b[?25h") == "hidden cursor");
    // The final byte ends the sequence; what follows is text again.
    CHECK(filter_whole("\x1b[2JBOOT") == "BOOT");
    CHECK(filter_whole("\x1b[@x") == "x"); // '@' (0x40) is the lowest final byte
    CHECK(filter_whole("\x1b[~x") == "x"); // '~' (0x7e) is the highest
}

TEST_CASE("OSC sequences end at BEL or ST", "[ansi]") {
    CHECK(filter_whole("\x1b]0;window title\x07text") == "text");
    CHECK(filter_whole("\x1b]0;window title\x1b\\text") == "text");
    // ESC inside an OSC that is not ST does not end it.
    CHECK(filter_whole("\x1b]0;a\x1bxb\ac") == "c");
}

TEST_CASE("two-byte escapes are removed", "[ansi]") {
    CHECK(filter_whole("\033cafter reset") == "after reset");
    CHECK(filter_whole("\x1b=\x1b>keypad") == "keypad");
}

TEST_CASE("escape sequences split across reads are still removed", "[ansi]") {
    const std::string stream =
        "\x1b[2J\x1b[01;01HUEFI\r\n\x1b]0;t\x1b\\\x1b[1;37;40mBOOTBENCH-MARKER boot-done 0.37\r\n";
    const std::string expected = "UEFI\nBOOTBENCH-MARKER boot-done 0.37\n";
    CHECK(filter_whole(stream) == expected);
    CHECK(filter_bytewise(stream) == expected);
    for (size_t split = 0; split <= stream.size(); ++split) {
        AnsiFilter filter;
        // Two statements: the operands of + may be evaluated in either order.
        std::string out = filter.filter(std::string_view(stream).substr(0, split));
        out += filter.filter(std::string_view(stream).substr(split));
        INFO("split at " << split);
        CHECK(out == expected);
    }
}

TEST_CASE("an ESC at the end of a read is remembered", "[ansi]") {
    AnsiFilter filter;
    CHECK(filter.filter("abc\x1b") == "abc");
    CHECK(filter.filter("[0") == "");
    CHECK(filter.filter("mX") == "X");
}

// ECMA-35 nF escapes carry intermediate bytes (0x20-0x2f) before their final byte: ncurses'
// sgr0 for xterm is "ESC ( B ESC [ m", which a guest's `tput sgr0` or colour output emits.
TEST_CASE("three-byte charset escapes such as ESC ( B are removed", "[ansi]") {
    CHECK(filter_whole("\x1b(B\x1b[mplain") == "plain");
    CHECK(filter_whole("\x1b(0q\x1b(B") == "q");
}
