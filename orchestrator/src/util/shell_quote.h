#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// The one shell quoter: `text` as a single POSIX sh word. Plain words (no metacharacters, not
// empty) stay as they are so printed commands read naturally; anything else is single-quoted,
// an embedded ' written as '\''.
std::string shell_quote(std::string_view text);

// The words joined by spaces, each quoted as above: a command line to copy and paste.
std::string shell_command_line(const std::vector<std::string>& words);

} // namespace bb
