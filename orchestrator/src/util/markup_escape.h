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

// A terminal line: text a database or a file holds (a run's note, a cell key, a host name)
// printed as it is, except what could act on the terminal instead of being shown: C0 and C1
// controls (ESC, CR, LF, U+0085 ...), DEL, bidi overrides and isolates (U+202E ...) and bytes
// that are not UTF-8 each become U+FFFD. The one escaper for stored strings a terminal sees.
std::string terminal_text(std::string_view text);
// The same for a whole rendered text (a report, an error message): its own line breaks and
// tabs are kept, everything else terminal_text replaces is replaced.
std::string terminal_output(std::string_view text);

} // namespace bb
