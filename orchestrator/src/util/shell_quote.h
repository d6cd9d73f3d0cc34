#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// The one shell quoter: `text` as a single POSIX sh word. Plain words (no metacharacters, not
// empty) stay as they are so printed commands read naturally; anything else is single-quoted,
// an embedded ' written as '\''.
std::string shell_quote(std::string_view text);

// `text` made safe to follow a '#' on one line of a shell script: every control character (a
// newline would end the comment and start a command) is written as \xHH, a backslash as \\.
std::string shell_comment_text(std::string_view text);

// The words joined by spaces, each quoted as above: a command line to copy and paste.
std::string shell_command_line(const std::vector<std::string>& words);

} // namespace bb
