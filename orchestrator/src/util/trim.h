#pragma once
#include <string>

namespace bb {
// The text without its trailing newlines, spaces and tabs: a command's one-line answer
// (`apt-cache policy`, `gcc --version`) as a value.
std::string trimmed(std::string text);
} // namespace bb
