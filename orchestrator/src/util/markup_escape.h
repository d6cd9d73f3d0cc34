#pragma once
#include <string>
#include <string_view>

namespace bb {

// The escaping rules bootbench writes markup (and a terminal's text) with, one function each.

// HTML (the report): the one escaping function of the HTML report, safe in element text and in
// quoted attribute values alike: & < > " ' become entities, line breaks become &#10; / &#13; (so a
// name with a newline cannot end an attribute or a line of the SVG), other control characters,
// which HTML forbids, become U+FFFD. Every name and value the report prints goes through it.
std::string html_escape(std::string_view text);

// roff (the man page): a backslash becomes \e, a hyphen \- (so options stay ASCII hyphens when
// the page is rendered), and a line that would start with '.' or '\'' (a roff request) starts
// with \& instead; a non-ASCII character becomes \[uXXXX]. Control characters other than tab
// and LF become '?'.
std::string roff_escape(std::string_view text);

// XML 1.0 (JUnit files, libvirt domain XML): & < > " ' become entities; control characters
// other than tab, LF and CR, which XML 1.0 does not allow even as references, become '?'.
std::string xml_escape(std::string_view text);

// A terminal line: text a database holds (a run's note) printed as it is, except control
// characters (an escape sequence could rewrite the screen), which become U+FFFD.
std::string terminal_text(std::string_view text);

} // namespace bb
